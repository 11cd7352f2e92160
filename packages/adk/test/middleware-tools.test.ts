import { type AgentMiddleware, type AnyTool, ChatModelAgent, tool } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { expect, test } from 'vitest';
import { z } from 'zod';

const lookup = tool({
  name: 'lookup',
  description: 'Looks a word up',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => `${word}: a greeting`,
}) as unknown as AnyTool;

const clock = tool({
  name: 'clock',
  description: 'The time',
  parameters: z.object({}),
  execute: () => 'noon',
}) as unknown as AnyTool;

test('a tool a beforeModel hook offers for a call runs for that call', async () => {
  const offering: AgentMiddleware = {
    beforeModel: (request) => ({ ...request, tools: [...request.tools, lookup] }),
  };
  const model = new ScriptedChatModel([
    { toolCalls: [{ name: 'lookup', arguments: { word: 'hello' } }] },
    'It is a greeting.',
  ]);
  const agent = new ChatModelAgent({ name: 'reader', model, tools: [clock], middleware: [offering] });
  const state = await agent.graph.invoke({ input: 'what is hello?' });
  const answer = state.messages.find((m) => m.role === 'tool');
  expect(answer).toMatchObject({ name: 'lookup', status: 'success', content: 'hello: a greeting' });
  expect(model.calls[0]?.options.tools?.map((t) => t.name)).toEqual(['clock', 'lookup']);
  expect(state.output).toBe('It is a greeting.');
});

test('a tool a beforeModel hook withholds from a call does not run for that call', async () => {
  let ran = false;
  const guarded = tool({
    name: 'guarded',
    description: 'Only when offered',
    parameters: z.object({}),
    execute: () => {
      ran = true;
      return 'ran';
    },
  }) as unknown as AnyTool;
  const withholding: AgentMiddleware = {
    beforeModel: (request) => ({ ...request, tools: request.tools.filter((t) => t.name !== 'guarded') }),
  };
  const model = new ScriptedChatModel([{ toolCalls: [{ name: 'guarded', arguments: {} }] }, 'done']);
  const agent = new ChatModelAgent({ name: 'careful', model, tools: [guarded], middleware: [withholding] });
  const state = await agent.graph.invoke({ input: 'go' });
  expect(ran).toBe(false);
  expect(state.messages.find((m) => m.role === 'tool')).toMatchObject({ name: 'guarded', status: 'error' });
});

test('the tools offered follow each call: one offered only in the first call cannot run after it', async () => {
  let call = 0;
  const once: AgentMiddleware = {
    beforeModel: (request) => (call++ === 0 ? { ...request, tools: [...request.tools, lookup] } : undefined),
  };
  const model = new ScriptedChatModel([
    { toolCalls: [{ name: 'lookup', arguments: { word: 'a' } }] },
    { toolCalls: [{ name: 'lookup', arguments: { word: 'b' } }] },
    'done',
  ]);
  const agent = new ChatModelAgent({ name: 'stepper', model, tools: [clock], middleware: [once] });
  const state = await agent.graph.invoke({ input: 'go' });
  const results = state.messages.filter((m) => m.role === 'tool');
  expect(results.map((m) => m.status)).toEqual(['success', 'error']);
});
