import { readFile } from 'node:fs/promises';
import { MemorySessionService, type Message, messageText, Runner, tool } from '@weft/adk';
import { ScriptedChatModel } from '@weft/adk/testing';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createReactAgent } from '../src/index.js';
import { drain, trace } from './helpers.js';

const add = tool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});
const flaky = tool({
  name: 'fetch_rate',
  description: 'Fetches an exchange rate',
  parameters: z.object({ pair: z.string() }),
  execute: () => {
    throw new Error('rate service unavailable');
  },
});
const transfer = tool({
  name: 'transfer_money',
  description: 'Transfers money',
  parameters: z.object({ amount: z.number() }),
  needsApproval: true,
  execute: ({ amount }) => `sent ${amount}`,
});

describe('createReactAgent', () => {
  test('happy path: calls a tool and answers; the graph is the ReAct graph shown in the README', async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] },
      'It is 5.',
    ]);
    const agent = createReactAgent({ model, tools: [add], instruction: 'You add numbers.' });
    const state = await agent.graph.invoke({ input: 'What is 2 + 3?' });
    expect(state.output).toBe('It is 5.');
    expect(state.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(model.calls[0]?.messages[0]).toMatchObject({ role: 'system', content: 'You add numbers.' });
    expect(agent.name).toBe('react_agent');
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(agent.graph.toMermaid());
  });

  test('event sequence of a tool round through a Runner, with the output committed to the session', async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] },
      'It is 3.',
    ]);
    const agent = createReactAgent({ name: 'calc', model, tools: [add], outputKey: 'answer' });
    const sessions = new MemorySessionService();
    const runner = new Runner({ agent, sessionService: sessions, streaming: true });
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: '1 + 2?' }));
    expect(trace(events)).toEqual([
      'user:user',
      'calc:calls(add)',
      'calc:result(add)',
      'calc:assistant',
      'calc:delta',
      'calc:done',
    ]);
    expect(events.filter((e) => e.partial).length).toBeGreaterThan(0);
    expect(events.at(-2)?.actions.stateDelta).toEqual({ answer: 'It is 3.' });
    const session = await sessions.get({ appName: 'calc', userId: 'u', sessionId: 's' });
    expect(session?.state.answer).toBe('It is 3.');
  });

  test('error path: a failing tool is reported to the model, which recovers', async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'fetch_rate', arguments: { pair: 'EURUSD' } }] },
      'The rate service is down; try again later.',
    ]);
    const agent = createReactAgent({ model, tools: [flaky] });
    const state = await agent.graph.invoke({ input: 'EUR to USD?' });
    const result = state.messages[2] as Message;
    expect(result).toMatchObject({ role: 'tool', status: 'error' });
    expect(messageText(result)).toContain('rate service unavailable');
    expect(model.calls[1]?.messages.at(-1)).toMatchObject({ role: 'tool', status: 'error' });
    expect(state.output).toBe('The rate service is down; try again later.');
  });

  test('an iteration limit stops a model that never answers', async () => {
    const model = new ScriptedChatModel(() => ({ toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] }));
    const agent = createReactAgent({ model, tools: [add], maxIterations: 3 });
    await expect(agent.graph.invoke({ input: 'loop' })).rejects.toThrow(/3/);
    expect(model.calls).toHaveLength(3);
  });

  test('structured output: the final answer is parsed and validated with outputSchema', async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'add', arguments: { a: 20, b: 22 } }] },
      '{"answer": 42, "explanation": "20 + 22"}',
    ]);
    const agent = createReactAgent({
      model,
      tools: [add],
      outputSchema: z.object({ answer: z.number(), explanation: z.string() }),
    });
    const state = await agent.graph.invoke({ input: '20 + 22?' });
    expect(state.output).toEqual({ answer: 42, explanation: '20 + 22' });
    expect(model.calls[1]?.options.responseFormat).toMatchObject({ type: 'json_schema' });
  });

  test('compaction: long histories are summarized by the (cheaper) compaction model', async () => {
    const model = new ScriptedChatModel((_m, _o, index) => `Reply ${index}: ${'words '.repeat(40)}`);
    const cheap = new ScriptedChatModel(() => 'Short summary.');
    const agent = createReactAgent({
      model,
      compaction: { model: cheap, thresholdTokens: 150, keepLastTurns: 2 },
    });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
    for (let turn = 0; turn < 4; turn++)
      await drain(runner.run({ userId: 'u', sessionId: 's', message: `Turn ${turn}` }));
    expect(cheap.calls.length).toBeGreaterThan(0);
    const last = model.calls.at(-1)?.messages ?? [];
    expect(messageText(last[0] as Message)).toBe('Summary of the conversation so far:\nShort summary.');
  });

  test('pause and resume: a tool that needs approval pauses the run; approving continues it', async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'transfer_money', arguments: { amount: 50 } }] },
      'Sent 50.',
    ]);
    const agent = createReactAgent({ name: 'banker', model, tools: [transfer] });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
    const paused = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Send 50' }));
    expect(trace(paused)).toEqual(['user:user', 'banker:calls(transfer_money)', 'banker:pause']);
    const request = paused.at(-1)?.interrupts?.[0];
    expect(request?.value).toMatchObject({ type: 'tool-approval', calls: [{ name: 'transfer_money' }] });
    const resumed = await drain(
      runner.resume({ userId: 'u', sessionId: 's', decisions: { [request?.id ?? '']: true } }),
    );
    expect(trace(resumed)).toEqual(['banker:result(transfer_money)', 'banker:assistant', 'banker:done']);
    expect(resumed[0]?.message).toMatchObject({ content: 'sent 50' });
  });

  test('pause and resume: a rejected call is answered with the reason and never runs', async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'transfer_money', arguments: { amount: 9999 } }] },
      'Not sent.',
    ]);
    const agent = createReactAgent({ name: 'banker', model, tools: [transfer] });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
    await drain(runner.run({ userId: 'u', sessionId: 's', message: 'Send 9999' }));
    const resumed = await drain(
      runner.resume({ userId: 'u', sessionId: 's', decisions: { approved: false, reason: 'too much' } }),
    );
    expect(trace(resumed)).toEqual([
      'banker:result(transfer_money:error)',
      'banker:assistant',
      'banker:done',
    ]);
    expect(messageText(resumed[0]?.message as Message)).toBe('The user rejected this call: too much');
  });
});
