import type { Store, StoreOptions } from '@weft/compose';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatModelAgent } from '../agent/chat-model-agent.js';
import type { AgentEvent } from '../event/agent-event.js';
import { loadMemoryTool } from '../memory/load-memory-tool.js';
import { recall } from '../memory/recall.js';
import { StoreMemoryService } from '../memory/store-memory-service.js';
import type { ToolMessage } from '../message/message.js';
import { userMessage } from '../message/message-constructors.js';
import { messageText } from '../message/message-text.js';
import { AgentTool } from '../multi/agent-tool.js';
import { SequentialAgent } from '../multi/sequential-agent.js';
import { Runner } from '../runner/runner.js';
import { MemorySessionService } from '../session/memory-session-service.js';
import { tool } from '../tool/tool.js';
import { drain } from './drain.js';
import type { MemoryStoreFixture } from './memory-service-conformance.js';
import { ScriptedChatModel } from './scripted-chat-model.js';

const toolMessages = (events: readonly AgentEvent[]): ToolMessage[] =>
  events.flatMap((e) => (!e.partial && e.message?.role === 'tool' ? [e.message as ToolMessage] : []));

/** A tool that notes what it sees of the Runner's store and memory into that store, and answers with it. */
const noteTool = tool({
  name: 'note',
  description: 'Keeps a note in the long-term store',
  parameters: z.object({ text: z.string() }),
  async execute({ text }, context) {
    if (!context.store) return 'no store';
    const user = context.run?.userId ?? 'nobody';
    await context.store.put(['notes', user], context.toolCallId, { text, by: context.toolName });
    const remembered = (await context.memory?.search('green tea'))?.map((m) => m.text) ?? 'no memory';
    return { stored: text, remembered };
  },
});

/**
 * Registers the suite that checks what a `Runner` hands its agents on a store: `new Runner({ store,
 * memoryService })` reaches every tool as `context.store` and `context.memory` (bound to the session's
 * user) — the root agent's, a sub-agent's in a workflow, and an agent used as a tool — and every agent's
 * memory middleware (`recall()`, `loadMemoryTool()` without a service). Every `Store` implementation
 * runs it.
 *
 * @example
 * ```ts
 * import { describeRunnerServicesConformance } from '@weft/adk/testing/conformance';
 *
 * describeRunnerServicesConformance('MemoryStore', async (options) => ({ store: new MemoryStore(options) }));
 * ```
 */
export function describeRunnerServicesConformance(
  name: string,
  factory: (options: StoreOptions) => Promise<MemoryStoreFixture>,
): void {
  describe(`${name} (Runner store and memory conformance)`, () => {
    const open: MemoryStoreFixture[] = [];
    const make = async (): Promise<Store> => {
      const fixture = await factory({});
      open.push(fixture);
      return fixture.store;
    };
    afterEach(async () => {
      for (const fixture of open.splice(0)) {
        await fixture.store.close?.();
        await fixture.cleanup?.();
      }
    });

    it('gives every tool the Runner store and the session user memory: root agent, workflow sub-agent, agent tool', async () => {
      const store = await make();
      const memoryService = new StoreMemoryService({ store });
      await memoryService.addMessages({ appName: 'desk', userId: 'ada', sessionId: 'old' }, [
        userMessage('I drink green tea every morning'),
      ]);
      await memoryService.addMessages({ appName: 'desk', userId: 'bob', sessionId: 'old' }, [
        userMessage('I hate green tea'),
      ]);
      const call = (id: string, text: string) => ({ toolCalls: [{ id, name: 'note', arguments: { text } }] });
      const helper = new ChatModelAgent({
        name: 'helper',
        description: 'Keeps notes',
        model: new ScriptedChatModel([call('h1', 'from the agent tool'), 'Noted.']),
        tools: [noteTool],
      });
      const first = new ChatModelAgent({
        name: 'first',
        model: new ScriptedChatModel([
          call('r1', 'from the root'),
          { toolCalls: [{ id: 't1', name: 'helper', arguments: { request: 'note it' } }] },
          'Done.',
        ]),
        tools: [noteTool, new AgentTool(helper)],
      });
      const second = new ChatModelAgent({
        name: 'second',
        model: new ScriptedChatModel([call('s1', 'from a sub-agent'), 'Done too.']),
        tools: [noteTool],
      });
      const agent = new SequentialAgent({ name: 'desk', subAgents: [first, second] });
      const runner = new Runner({ agent, sessionService: new MemorySessionService(), store, memoryService });
      const events = await drain(runner.run({ userId: 'ada', sessionId: 's1', message: 'Take notes.' }));
      const notes = (await store.search(['notes', 'ada'])).map((item) => item.value.text).sort();
      expect(notes).toEqual(['from a sub-agent', 'from the agent tool', 'from the root']);
      const answers = toolMessages(events)
        .filter((m) => m.name === 'note')
        .map((m) => JSON.parse(messageText(m)));
      expect(answers).toHaveLength(3);
      // each tool saw only the session user's memories
      for (const answer of answers) expect(answer.remembered).toEqual(['I drink green tea every morning']);
    });

    it('gives memory middleware and load_memory the Runner memory service when they are given none', async () => {
      const store = await make();
      const memoryService = new StoreMemoryService({ store });
      await memoryService.addMessages({ appName: 'cafe', userId: 'ada', sessionId: 'old' }, [
        userMessage('I drink green tea every morning'),
      ]);
      const model = new ScriptedChatModel([
        { toolCalls: [{ id: 'm1', name: 'load_memory', arguments: { query: 'green tea' } }] },
        'You like green tea.',
      ]);
      const agent = new ChatModelAgent({
        name: 'cafe',
        model,
        tools: [loadMemoryTool()],
        middleware: [recall()],
      });
      const runner = new Runner({ agent, sessionService: new MemorySessionService(), memoryService });
      const events = await drain(runner.run({ userId: 'ada', sessionId: 's1', message: 'What do I drink?' }));
      const [loaded] = toolMessages(events);
      expect(loaded?.status).toBe('success');
      expect(messageText(loaded!)).toContain('I drink green tea every morning');
      // recall put the memory into the instruction of the first model call
      expect(messageText(model.calls[0]!.messages[0]!)).toContain('I drink green tea every morning');
    });

    it('without a store or memory service, tools see none and load_memory says what is missing', async () => {
      const model = new ScriptedChatModel([
        {
          toolCalls: [
            { id: 'n1', name: 'note', arguments: { text: 'x' } },
            { id: 'm1', name: 'load_memory', arguments: { query: 'tea' } },
          ],
        },
        'Ok.',
      ]);
      const agent = new ChatModelAgent({ name: 'bare', model, tools: [noteTool, loadMemoryTool()] });
      const runner = new Runner({ agent, sessionService: new MemorySessionService() });
      const [note, load] = toolMessages(
        await drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' })),
      );
      expect(messageText(note!)).toBe('no store');
      expect(load?.status).toBe('error');
      expect(messageText(load!)).toMatch(/no memory service: give the Runner a memoryService/);
    });
  });
}
