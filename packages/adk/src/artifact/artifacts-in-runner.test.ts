import { MemoryStore } from '@weft/compose';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatModelAgent } from '../agent/chat-model-agent.js';
import type { AgentEvent } from '../event/agent-event.js';
import type { Message, ToolMessage } from '../message/message.js';
import { messageText } from '../message/message-text.js';
import { Runner } from '../runner/runner.js';
import { MemorySessionService } from '../session/memory-session-service.js';
import { ScriptedChatModel } from '../testing/scripted-chat-model.js';
import { tool } from '../tool/tool.js';
import { loadArtifactsTool } from './load-artifacts-tool.js';
import { StoreArtifactService } from './store-artifact-service.js';

const writeReport = tool({
  name: 'write_report',
  description: 'Saves a report',
  parameters: z.object({ name: z.string(), text: z.string() }),
  async execute({ name, text }, context) {
    const version = await context.artifacts?.save(name, { data: text, mimeType: 'text/markdown' });
    return `saved ${name} v${version}`;
  },
});

async function run(runner: Runner, sessionId: string, message: string): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of runner.run({ userId: 'u1', sessionId, message }))
    if (!event.partial) events.push(event);
  return events;
}

describe('artifacts in a Runner', () => {
  it('commits artifactDelta with the tool event and lets load_artifacts read the files', async () => {
    const artifactService = new StoreArtifactService({ store: new MemoryStore() });
    const sessionService = new MemorySessionService();
    const model = new ScriptedChatModel([
      {
        toolCalls: [
          { name: 'write_report', arguments: { name: 'q3.md', text: '# Q3\nup 4%' } },
          { name: 'write_report', arguments: { name: 'user:style.md', text: 'terse' } },
        ],
      },
      { toolCalls: [{ name: 'write_report', arguments: { name: 'q3.md', text: '# Q3\nup 5%' } }] },
      'Saved.',
      { toolCalls: [{ name: 'load_artifacts', arguments: {} }] },
      { toolCalls: [{ name: 'load_artifacts', arguments: { names: ['user:style.md', 'q3.md'] } }] },
      'Read them.',
    ]);
    const agent = new ChatModelAgent({ name: 'writer', model, tools: [writeReport, loadArtifactsTool()] });
    const runner = new Runner({ agent, sessionService, artifactService, appName: 'office' });
    await run(runner, 's1', 'Write the Q3 report');
    const session = await sessionService.get({ appName: 'office', userId: 'u1', sessionId: 's1' });
    const deltas = session?.events.map((e) => e.actions.artifactDelta).filter((d) => d !== undefined);
    expect(deltas).toEqual([{ 'q3.md': 0, 'user:style.md': 0 }, { 'q3.md': 1 }]);

    const events = await run(runner, 's2', 'What files do I have?');
    const results = events.filter((e) => e.message?.role === 'tool').map((e) => e.message as ToolMessage);
    expect(JSON.parse(messageText(results[0] as Message))).toEqual({ artifacts: ['user:style.md'] });
    const loaded = messageText(results[1] as Message);
    expect(loaded).toContain('Artifact "user:style.md" (version 0, text/markdown, 5 bytes):\nterse');
    expect(loaded).toContain('Artifact "q3.md" does not exist.');
    expect(await artifactService.list({ appName: 'office', userId: 'u1', sessionId: 's1' })).toEqual([
      'q3.md',
      'user:style.md',
    ]);
  });

  it('fails load_artifacts as a tool error without an artifact service', async () => {
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'load_artifacts', arguments: {} }] }, 'ok']);
    const agent = new ChatModelAgent({ name: 'writer', model, tools: [loadArtifactsTool()] });
    const events = await run(new Runner({ agent, sessionService: new MemorySessionService() }), 's1', 'hi');
    const result = events.find((e) => e.message?.role === 'tool')?.message as ToolMessage;
    expect(result.status).toBe('error');
    expect(messageText(result)).toContain('artifactService');
  });
});
