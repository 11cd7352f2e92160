import { END, MemoryCheckpointer, START, StateGraph } from '@weft/compose';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { createToolNode } from '../src/agent-graph.js';
import {
  assistantMessage,
  type Message,
  messagesReducer,
  messageText,
  tool,
  userMessage,
} from '../src/index.js';

const schema = z.object({ messages: z.array(z.custom<Message>()).default([]) });

test('an effect tool runs once per call across a failed tool step continued later, with a stable key', async () => {
  const charges: string[] = [];
  let failures = 1;
  const charge = tool({
    name: 'charge',
    description: 'Charges the card',
    parameters: z.object({ cents: z.number() }),
    effect: true,
    execute: ({ cents }, context) => {
      charges.push(context.idempotencyKey ?? 'no key');
      return { receipt: `r-${charges.length}`, cents };
    },
  });
  const audit = tool({
    name: 'audit',
    description: 'Writes the audit log',
    parameters: z.object({}),
    execute: async () => {
      if (failures-- > 0) throw new Error('audit log unavailable');
      return 'logged';
    },
  });
  const graph = new StateGraph(schema, { reducers: { messages: messagesReducer } })
    .addNode('tools', createToolNode({ tools: [charge, audit], onToolError: 'throw', concurrency: 1 }))
    .addEdge(START, 'tools')
    .addEdge('tools', END)
    .compile({ checkpointer: new MemoryCheckpointer() });
  const call = assistantMessage('', {
    toolCalls: [
      { id: 'c1', name: 'charge', arguments: JSON.stringify({ cents: 500 }) },
      { id: 'c2', name: 'audit', arguments: '{}' },
    ],
  });
  await expect(graph.invoke({ messages: [userMessage('pay'), call] }, { threadId: 't' })).rejects.toThrow(
    'audit log unavailable',
  );
  const state = await graph.invoke(null, { threadId: 't' });
  const answers = state.messages.filter((m) => m.role === 'tool').map((m) => messageText(m));
  expect(answers).toEqual(['{"receipt":"r-1","cents":500}', 'logged']);
  expect(charges).toHaveLength(1);
  expect(charges[0]).toMatch(/^weft-[0-9a-f]{40}$/);
});

test('outside a graph an effect tool runs with a key made from the call id', async () => {
  const keys: (string | undefined)[] = [];
  const send = tool({
    name: 'send',
    description: 'Sends',
    parameters: z.object({}),
    effect: true,
    execute: (_args, context) => keys.push(context.idempotencyKey),
  });
  const context = {
    toolCallId: 'c9',
    toolName: 'send',
    signal: new AbortController().signal,
    emit: () => {},
  };
  await send.execute({}, { ...context, state: undefined as never });
  await send.execute({}, { ...context, state: undefined as never });
  expect(keys[0]).toMatch(/^weft-[0-9a-f]{40}$/);
  expect(keys[1]).toBe(keys[0]);
});
