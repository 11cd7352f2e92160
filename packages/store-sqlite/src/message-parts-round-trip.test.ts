// Rich message parts (reasoning with signature, inline media, provider metadata) survive a run that is
// checkpointed and committed to SQLite, and come back intact on the next turn from a new process's view.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AgentEvent,
  type AssistantMessage,
  ChatModelAgent,
  type Message,
  mediaPart,
  Runner,
  tool,
  userMessage,
} from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { z } from 'zod';
import { SqliteCheckpointer } from './sqlite-checkpointer.js';
import { SqliteSessionService } from './sqlite-session-service.js';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'weft-sqlite-parts-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

async function drainEvents(events: AsyncIterable<AgentEvent>): Promise<void> {
  for await (const _event of events) void _event;
}

const question = userMessage([
  { type: 'text', text: 'What is in these?' },
  mediaPart({ type: 'image', mediaType: 'image/png', bytes: new Uint8Array([137, 80, 78, 71]) }),
  mediaPart({
    type: 'file',
    mediaType: 'application/pdf',
    bytes: new Uint8Array([37, 80]),
    filename: 'a.pdf',
  }),
  { type: 'audio', mediaType: 'audio/wav', url: 'https://example.com/a.wav' },
]);

const thinking: AssistantMessage = {
  role: 'assistant',
  content: [
    { type: 'reasoning', text: 'Look first.', signature: 'sig-1', providerMetadata: { anthropic: { n: 1 } } },
    { type: 'reasoning', text: '', redacted: 'opaque==' },
  ],
  toolCalls: [
    { id: 'call_1', name: 'look', arguments: '{}', providerMetadata: { google: { thoughtSignature: 'ts' } } },
  ],
  usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15, cachedInputTokens: 8, reasoningTokens: 3 },
  finishReason: 'tool-calls',
  providerMetadata: { openai: { responseId: 'resp_1' } },
};

const authored = { ...thinking, author: 'viewer' };

function agentWith(model: ScriptedChatModel) {
  const look = tool({ name: 'look', description: 'Looks', parameters: z.object({}), execute: () => 'a cat' });
  return new ChatModelAgent({ name: 'viewer', model, tools: [look] });
}

function withoutIds(messages: readonly Message[] | undefined): unknown[] {
  return (messages ?? []).map(({ id: _id, ...rest }) => rest);
}

test('reasoning, media and provider metadata round-trip through SQLite checkpoints and sessions', async () => {
  const filename = join(directory, 'weft.db');
  const first = new ScriptedChatModel([thinking, 'A cat.']);
  const runner = new Runner({
    agent: agentWith(first),
    sessionService: new SqliteSessionService({ filename }),
    checkpointer: new SqliteCheckpointer({ filename }),
    streaming: false,
  });
  await drainEvents(runner.run({ userId: 'u', sessionId: 's', message: question }));
  expect(withoutIds(first.calls[1]?.messages).slice(0, 2)).toEqual([question, authored]);

  // A second process: new store objects on the same file, a new model, the same session.
  const second = new ScriptedChatModel(['Still a cat.']);
  const sessions = new SqliteSessionService({ filename });
  const again = new Runner({
    agent: agentWith(second),
    sessionService: sessions,
    checkpointer: new SqliteCheckpointer({ filename }),
    streaming: false,
  });
  await drainEvents(again.run({ userId: 'u', sessionId: 's', message: 'And now?' }));
  const history = withoutIds(second.calls[0]?.messages);
  expect(history.slice(0, 2)).toEqual([question, authored]);
  const session = await sessions.get({ appName: 'viewer', userId: 'u', sessionId: 's' });
  const stored = session?.events.map((event) => event.message).filter((message) => message !== undefined);
  expect(withoutIds(stored).slice(0, 2)).toEqual([question, authored]);
});
