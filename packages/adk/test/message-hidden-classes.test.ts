// The messages an agent writes keep one V8 hidden class per kind across runs (ADR 025, fifth pass):
// built by spreading one optional field at a time, or stamped with a spread, each got a new class once
// optimized, and every later read of a message field (by the model adapters, context builders, the
// reducer) missed its inline cache.
import { setFlagsFromString } from 'node:v8';
import { beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import { ChatModelAgent } from '../src/agent/chat-model-agent.js';
import { userMessage } from '../src/message/message-constructors.js';
import { ScriptedChatModel } from '../src/testing/scripted-chat-model.js';
import { tool } from '../src/tool/tool.js';

let sameMap: (a: object, b: object) => boolean;

beforeAll(() => {
  // Natives syntax is read when a function is compiled: the flag holds for the function made below.
  setFlagsFromString('--allow-natives-syntax');
  sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as typeof sameMap;
});

test('assistant and tool messages keep one hidden class across agent runs', async () => {
  const rounds = 10;
  const model = new ScriptedChatModel((messages) => {
    const done = messages.filter((message) => message.role === 'tool').length;
    return done < rounds ? { toolCalls: [{ name: 'step', arguments: { i: done } }] } : 'done';
  });
  const step = tool({
    name: 'step',
    description: 'one step',
    parameters: z.object({ i: z.number() }),
    execute: ({ i }) => `step ${i} ok`,
  });
  const agent = new ChatModelAgent({ name: 'probe', model, tools: [step], maxIterations: rounds + 5 });
  const run = async () => (await agent.graph.invoke({ messages: [userMessage('go')] })).messages;
  const first = await run();
  for (let i = 0; i < 300; i++) await run();
  const later = await run();
  expect(later).toHaveLength(2 + 2 * rounds);
  for (let i = 1; i < first.length; i++) {
    expect(sameMap(first[i] as object, later[i] as object), `message ${i} (${later[i]?.role})`).toBe(true);
  }
});
