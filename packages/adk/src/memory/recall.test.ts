import { MemoryStore } from '@weft/compose';
import { describe, expect, it } from 'vitest';
import { ChatModelAgent } from '../agent/chat-model-agent.js';
import { promptSections } from '../context/prompt-sections.js';
import type { AgentEvent } from '../event/agent-event.js';
import type { Message } from '../message/message.js';
import { userMessage } from '../message/message-constructors.js';
import { messageText } from '../message/message-text.js';
import { Runner } from '../runner/runner.js';
import { MemorySessionService } from '../session/memory-session-service.js';
import { ScriptedChatModel } from '../testing/scripted-chat-model.js';
import { loadMemoryTool } from './load-memory-tool.js';
import { memorize } from './memorize.js';
import { recall, recallSection } from './recall.js';
import { StoreMemoryService } from './store-memory-service.js';

async function seeded(): Promise<StoreMemoryService> {
  const memory = new StoreMemoryService({ store: new MemoryStore() });
  const key = { appName: 'cafe', userId: 'ada', sessionId: 'old' };
  await memory.addMessages(key, [
    userMessage('I drink green tea every morning', { id: 'a' }),
    userMessage('Green tea with lemon, never with milk', { id: 'b' }),
  ]);
  return memory;
}

async function run(runner: Runner, userId: string, message: string): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of runner.run({ userId, sessionId: 's', message }))
    if (!event.partial) events.push(event);
  return events;
}

const system = (model: ScriptedChatModel, call = 0) => messageText(model.calls[call]?.messages[0] as Message);

describe('recall', () => {
  it('searches once per turn and keeps the hits in every model call of that turn', async () => {
    let searches = 0;
    class Counting extends StoreMemoryService {
      override search(...args: Parameters<StoreMemoryService['search']>) {
        searches += 1;
        return super.search(...args);
      }
    }
    const memory = new Counting({ store: new MemoryStore() });
    await memory.addMessages({ appName: 'cafe', userId: 'ada', sessionId: 'old' }, [
      userMessage('Green tea with lemon, never with milk', { id: 'b' }),
    ]);
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'noop', arguments: {} }] },
      'Green tea it is.',
    ]);
    const noop = loadMemoryTool(memory);
    const agent = new ChatModelAgent({
      name: 'barista',
      model,
      instruction: 'Be kind.',
      tools: [{ ...noop, name: 'noop' }],
      middleware: [recall({ memory })],
    });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), appName: 'cafe' });
    await run(runner, 'ada', 'Which green tea do I like?');
    expect(searches).toBe(1);
    expect(system(model, 0)).toMatch(/^Be kind\.\n\n.*earlier conversations/s);
    expect(system(model, 1)).toBe(system(model, 0));
    expect(system(model, 0)).toContain('- Green tea with lemon, never with milk');
  });

  it('drops the lowest-scored memories to fit its budget and reports what it kept', async () => {
    const memory = await seeded();
    const model = new ScriptedChatModel(['ok']);
    const agent = new ChatModelAgent({
      name: 'barista',
      model,
      middleware: [recall({ memory, budgetTokens: 15, heading: 'Memories:' })],
    });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), appName: 'cafe' });
    const events = await run(runner, 'ada', 'green tea lemon milk');
    const report = events.find((e) => e.custom?.type === 'memory-recall')?.custom?.data as {
      memories: { text: string }[];
      dropped: number;
    };
    expect(report.memories.map((m) => m.text)).toEqual(['Green tea with lemon, never with milk']);
    expect(report.dropped).toBe(1);
    expect(system(model)).toBe('Memories:\n- Green tea with lemon, never with milk');
  });

  it('is a prompt section the context engine can drop under its budget', async () => {
    const memory = await seeded();
    const model = new ScriptedChatModel(['ok', 'ok']);
    const section = recallSection({ memory }, 1);
    const agent = new ChatModelAgent({
      name: 'barista',
      model,
      instruction: 'Be kind.',
      middleware: [promptSections({ budgetTokens: 10_000, sections: [section] })],
    });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), appName: 'cafe' });
    await run(runner, 'ada', 'green tea');
    expect(system(model)).toContain('I drink green tea every morning');
    const tight = new ChatModelAgent({
      name: 'barista',
      model,
      instruction: 'Be kind.',
      middleware: [promptSections({ budgetTokens: 5, sections: [section] })],
    });
    await run(
      new Runner({ agent: tight, sessionService: new MemorySessionService(), appName: 'cafe' }),
      'ada',
      'tea',
    );
    expect(system(model, 1)).toBe('Be kind.');
  });

  it('gives another user and another app nothing', async () => {
    const memory = await seeded();
    const model = new ScriptedChatModel(['ok', 'ok']);
    const agent = new ChatModelAgent({
      name: 'barista',
      model,
      instruction: 'Hi.',
      middleware: [recall({ memory })],
    });
    await run(
      new Runner({ agent, sessionService: new MemorySessionService(), appName: 'cafe' }),
      'bob',
      'green tea',
    );
    await run(
      new Runner({ agent, sessionService: new MemorySessionService(), appName: 'bar' }),
      'ada',
      'green tea',
    );
    expect(system(model, 0)).toBe('Hi.');
    expect(system(model, 1)).toBe('Hi.');
  });
});

describe('load_memory and memorize', () => {
  it('lets the model search the session user’s memories', async () => {
    const memory = await seeded();
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'load_memory', arguments: { query: 'lemon' } }] },
      'You take lemon.',
      { toolCalls: [{ name: 'load_memory', arguments: { query: 'lemon' } }] },
      'I do not know yet.',
    ]);
    const agent = new ChatModelAgent({ name: 'barista', model, tools: [loadMemoryTool(memory)] });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), appName: 'cafe' });
    const events = await run(runner, 'ada', 'How do I take my tea?');
    const result = events.find((e) => e.message?.role === 'tool')?.message as Message;
    expect(JSON.parse(messageText(result)).memories[0].text).toBe('Green tea with lemon, never with milk');
    const bob = await run(runner, 'bob', 'How do I take my tea?');
    expect(JSON.parse(messageText(bob.find((e) => e.message?.role === 'tool')?.message as Message))).toEqual({
      memories: [],
    });
  });

  it('records each turn for extraction and leaves runs without a session alone', async () => {
    const memory = new StoreMemoryService({ store: new MemoryStore() });
    const model = new ScriptedChatModel(['Noted.', 'Noted.']);
    const agent = new ChatModelAgent({ name: 'barista', model, middleware: [memorize({ memory })] });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), appName: 'cafe' });
    await run(runner, 'ada', 'I am vegan');
    await memory.idle();
    const texts = (await memory.list({ appName: 'cafe', userId: 'ada' })).map((m) => m.text).sort();
    expect(texts).toEqual(['I am vegan', 'Noted.']);
    await agent.graph.invoke({ input: 'no session here' });
    await memory.idle();
    expect(await memory.list({ appName: 'cafe', userId: 'ada' })).toHaveLength(2);
  });
});
