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

test('createToolNode runs in a state graph with only a messages key', async () => {
  const add = tool({
    name: 'add',
    description: 'adds',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => a + b,
  });
  const schema = z.object({ messages: z.array(z.custom<Message>()).default([]) });
  const graph = new StateGraph(schema, { reducers: { messages: messagesReducer } })
    .addNode('tools', createToolNode({ tools: [add] }))
    .addEdge(START, 'tools')
    .addEdge('tools', END)
    .compile({ checkpointer: new MemoryCheckpointer() });
  const question = userMessage('2+3?');
  const call = assistantMessage('', {
    toolCalls: [{ id: 'c1', name: 'add', arguments: JSON.stringify({ a: 2, b: 3 }) }],
  });
  const state = await graph.invoke({ messages: [question, call] }, { threadId: 't' });
  expect(state.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'c1', status: 'success' });
  expect(messageText(state.messages.at(-1)!)).toBe('5');
});
