// AG-UI's own client (`HttpAgent` from @ag-ui/client, which validates every event) runs a Weft agent
// through agUiHandler on a loopback server: text, tool calls and results, state, approval interrupts.
import { type AgentSubscriber, buildResumeArray, HttpAgent } from '@ag-ui/client';
import type { BaseEvent, Interrupt } from '@ag-ui/core';
import { type AgentEvent, ChatModelAgent, MemorySessionService, Runner, tool } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgUiRunner, agUiHandler } from '../src/ag-ui/index.js';
import { type Loopback, listen } from './loopback.js';

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function recorder() {
  const types: string[] = [];
  let interrupts: Interrupt[] = [];
  const subscriber: AgentSubscriber = {
    onEvent: ({ event }: { event: BaseEvent }) => {
      types.push(event.type);
    },
    onRunFinishedEvent: (params) => {
      if (params.outcome === 'interrupt') interrupts = params.interrupts;
    },
  };
  return { types, subscriber, interrupts: () => interrupts };
}

it('streams text, tool calls, results and state into an HttpAgent', async () => {
  const add = tool({
    name: 'add',
    description: 'Adds two numbers',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => a + b,
  });
  const model = new ScriptedChatModel(
    [
      { text: 'Let me add.', toolCalls: [{ id: 'call_1', name: 'add', arguments: { a: 1, b: 2 } }] },
      'It is 3.',
    ],
    { chunkSize: 4 },
  );
  const agent = new ChatModelAgent({ name: 'calc', model, tools: [add], outputKey: 'answer' });
  const runner = new Runner({ agent, sessionService: new MemorySessionService() });
  server = await listen(agUiHandler(runner));
  const client = new HttpAgent({ url: `${server.url}/agui`, threadId: 'thread_1' });
  client.addMessage({ id: 'u1', role: 'user', content: 'What is 1 + 2?' });
  const seen = recorder();
  await client.runAgent({ runId: 'run_1' }, seen.subscriber);
  expect(seen.types[0]).toBe('RUN_STARTED');
  expect(seen.types.at(-1)).toBe('RUN_FINISHED');
  expect(seen.types).toEqual(
    expect.arrayContaining([
      'STATE_SNAPSHOT',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
    ]),
  );
  expect(seen.types.filter((t) => t.startsWith('TOOL_CALL_') && t !== 'TOOL_CALL_ARGS')).toEqual([
    'TOOL_CALL_START',
    'TOOL_CALL_END',
    'TOOL_CALL_RESULT',
  ]);
  const shown = client.messages.map((m) => ({
    role: m.role,
    content: 'content' in m ? m.content : undefined,
    ...('toolCalls' in m && m.toolCalls
      ? { calls: m.toolCalls.map((c) => [c.id, c.function.name, c.function.arguments]) }
      : {}),
  }));
  expect(shown).toEqual([
    { role: 'user', content: 'What is 1 + 2?' },
    { role: 'assistant', content: 'Let me add.', calls: [['call_1', 'add', '{"a":1,"b":2}']] },
    { role: 'tool', content: '3' },
    { role: 'assistant', content: 'It is 3.' },
  ]);
  expect(client.state).toEqual({ answer: 'It is 3.' });
});

it('ends a paused run with interrupts and resumes it with the resume entries', async () => {
  const transfer = tool({
    name: 'transfer',
    description: 'Sends money',
    parameters: z.object({ to: z.string(), amount: z.number() }),
    needsApproval: true,
    execute: ({ to, amount }) => `sent ${amount} to ${to}`,
  });
  const model = new ScriptedChatModel([
    {
      toolCalls: [
        { id: 'call_a', name: 'transfer', arguments: { to: 'ann', amount: 5 } },
        { id: 'call_b', name: 'transfer', arguments: { to: 'bob', amount: 500 } },
      ],
    },
    'Done.',
  ]);
  const runner = new Runner({
    agent: new ChatModelAgent({ name: 'bank', model, tools: [transfer] }),
    sessionService: new MemorySessionService(),
  });
  server = await listen(agUiHandler(runner));
  const client = new HttpAgent({ url: `${server.url}/agui`, threadId: 'thread_2' });
  client.addMessage({ id: 'u1', role: 'user', content: 'Pay Ann 5 and Bob 500.' });
  const first = recorder();
  await client.runAgent({ runId: 'run_1' }, first.subscriber);
  const asked = first.interrupts();
  expect(asked.map((i) => [i.reason, i.toolCallId])).toEqual([
    ['tool_approval', 'call_a'],
    ['tool_approval', 'call_b'],
  ]);
  const [a, b] = asked as [Interrupt, Interrupt];
  const resume = buildResumeArray(asked, {
    [a.id]: { status: 'resolved', payload: true },
    [b.id]: { status: 'resolved', payload: { approved: false, reason: 'too much' } },
  });
  const second = recorder();
  await client.runAgent({ runId: 'run_2', resume }, second.subscriber);
  expect(second.interrupts()).toEqual([]);
  const results = client.messages.filter((m) => m.role === 'tool').map((m) => [m.toolCallId, m.content]);
  expect(results).toEqual([
    ['call_a', 'sent 5 to ann'],
    ['call_b', 'The user rejected this call: too much'],
  ]);
  expect(client.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Done.' });
});

it('sends custom events as CUSTOM and a failed run as RUN_ERROR', async () => {
  const sessionService = new MemorySessionService();
  const base = { invocationId: 'inv', author: 'agent', timestamp: 0, actions: {} };
  const runner = {
    appName: 'scripted',
    sessionService,
    async *run(): AsyncIterableIterator<AgentEvent> {
      yield { ...base, id: 'e1', custom: { type: 'progress', data: { done: 1 } } };
      yield { ...base, id: 'e2', error: { code: 'MODEL_ERROR', message: 'quota exceeded' } };
    },
    resume: () => {
      throw new Error('not paused');
    },
  } as unknown as AgUiRunner; // a Runner's shape, yielding the events under test
  server = await listen(agUiHandler(runner));
  const client = new HttpAgent({ url: `${server.url}/agui`, threadId: 'thread_3' });
  client.addMessage({ id: 'u1', role: 'user', content: 'Go' });
  const custom: unknown[] = [];
  let failure: string | undefined;
  await client.runAgent(
    {},
    {
      onCustomEvent: ({ event }) => {
        custom.push([event.name, event.value]);
      },
      onRunErrorEvent: ({ event }) => {
        failure = `${event.code}: ${event.message}`;
      },
    },
  );
  expect(custom).toEqual([['progress', { done: 1 }]]);
  expect(failure).toBe('MODEL_ERROR: quota exceeded');
});
