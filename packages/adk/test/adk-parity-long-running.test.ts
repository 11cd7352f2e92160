/**
 * Google ADK's long-running tools, ported from adk-python
 * `tests/unittests/flows/llm_flows/test_functions_long_running.py` (`test_async_function`,
 * `test_async_function_with_none_response`): a long-running tool's first result (its pending status)
 * goes to the model at once and the turn goes on; the client later sends progress updates and the
 * final result as tool messages, each a turn in which the model sees the call followed by its latest
 * result; the tool runs once. Weft's `tool({ longRunning: true })` is ADK's `LongRunningFunctionTool`.
 */
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  AdkError,
  ChatModelAgent,
  MemorySessionService,
  pending,
  Runner,
  tool,
  toolMessage,
} from '../src/index.js';
import { drain, ScriptedChatModel } from '../src/testing/index.js';
import { contents, simplify } from './adk-parity-helpers.js';

const ref = { userId: 'u1', sessionId: 's1' };

function setup(result: unknown) {
  let functionCalled = 0;
  const increaseByOne = tool({
    name: 'increase_by_one',
    description: 'Increases a number by one',
    parameters: z.object({ x: z.number() }),
    longRunning: true,
    execute: () => {
      functionCalled += 1;
      return result;
    },
  });
  const model = new ScriptedChatModel([
    { toolCalls: [{ id: 'inc-1', name: 'increase_by_one', arguments: { x: 1 } }] },
    'response1',
    'response2',
    'response3',
    'response4',
  ]);
  const agent = new ChatModelAgent({ name: 'root_agent', model, tools: [increaseByOne] });
  const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
  return { runner, model, called: () => functionCalled, tool: increaseByOne };
}

const call = ['assistant', [{ call: 'increase_by_one', args: { x: 1 } }]];
const update = (value: unknown) =>
  toolMessage([{ type: 'json', value: value as never }], { toolCallId: 'inc-1', name: 'increase_by_one' });

describe('long-running tools (test_functions_long_running.py)', () => {
  test('test_async_function', async () => {
    const { runner, model, called } = setup({ status: 'pending' });
    let events = await drain(runner.run({ ...ref, message: 'test1' }));
    expect(model.calls).toHaveLength(2);
    expect(contents(model.calls[0]?.messages ?? [])).toEqual([['user', 'test1']]);
    const pendingResult = ['tool', { result: 'increase_by_one', content: { status: 'pending' } }];
    expect(contents(model.calls[1]?.messages ?? [])).toEqual([['user', 'test1'], call, pendingResult]);
    expect(called()).toBe(1);
    expect(simplify(events)).toEqual([
      ['root_agent', call[1]],
      ['root_agent', pendingResult[1]],
      ['root_agent', 'response1'],
    ]);
    expect(events.find((e) => e.message?.role === 'assistant')?.longRunningToolIds).toEqual(['inc-1']);

    // Another pending progress, sent by the client.
    events = await drain(runner.run({ ...ref, message: update({ status: 'still waiting' }) }));
    expect(model.calls).toHaveLength(3);
    expect(contents(model.calls[2]?.messages ?? [])).toEqual([
      ['user', 'test1'],
      call,
      ['tool', { result: 'increase_by_one', content: { status: 'still waiting' } }],
    ]);
    expect(simplify(events)).toEqual([['root_agent', 'response2']]);

    // The result is ready.
    events = await drain(runner.run({ ...ref, message: update({ result: 2 }) }));
    expect(model.calls).toHaveLength(4);
    expect(contents(model.calls[3]?.messages ?? [])).toEqual([
      ['user', 'test1'],
      call,
      ['tool', { result: 'increase_by_one', content: { result: 2 } }],
    ]);
    expect(simplify(events)).toEqual([['root_agent', 'response3']]);

    // A later result is still accepted and summarized again.
    events = await drain(runner.run({ ...ref, message: update({ result: 3 }) }));
    expect(model.calls).toHaveLength(5);
    expect(contents(model.calls[4]?.messages ?? [])).toEqual([
      ['user', 'test1'],
      call,
      ['tool', { result: 'increase_by_one', content: { result: 3 } }],
    ]);
    expect(simplify(events)).toEqual([['root_agent', 'response4']]);
    expect(called()).toBe(1);
  });

  test('test_async_function_with_none_response: a text result is the pending status', async () => {
    const { runner, model, called } = setup('pending');
    await drain(runner.run({ ...ref, message: 'test1' }));
    expect(contents(model.calls[1]?.messages ?? [])).toEqual([
      ['user', 'test1'],
      call,
      ['tool', { result: 'increase_by_one', content: 'pending' }],
    ]);
    await drain(runner.run({ ...ref, message: update({ status: 'still waiting' }) }));
    await drain(runner.run({ ...ref, message: update({ result: 2 }) }));
    expect(contents(model.calls[2]?.messages ?? [])).toEqual([
      ['user', 'test1'],
      call,
      ['tool', { result: 'increase_by_one', content: { status: 'still waiting' } }],
    ]);
    expect(contents(model.calls[3]?.messages ?? [])).toEqual([
      ['user', 'test1'],
      call,
      ['tool', { result: 'increase_by_one', content: { result: 2 } }],
    ]);
    expect(called()).toBe(1);
  });

  test('the model is told the tool is long-running; pending() in such a tool is its status', async () => {
    const { runner, model, tool: longRunning } = setup(pending('job-7', { eta: '5 min' }));
    expect(longRunning.spec.description).toMatch(/long-running/);
    await drain(runner.run({ ...ref, message: 'test1' }));
    expect(contents(model.calls[1]?.messages ?? []).at(-1)).toEqual([
      'tool',
      {
        result: 'increase_by_one',
        content: { status: 'pending', pendingId: 'job-7', info: { eta: '5 min' } },
      },
    ]);
  });

  test('later turns show each call followed by its latest result, the texts in between kept', async () => {
    const { runner, model } = setup({ status: 'pending' });
    await drain(runner.run({ ...ref, message: 'test1' }));
    await drain(runner.run({ ...ref, message: update({ result: 2 }) }));
    const moreModel = model.calls.length;
    await drain(runner.run({ ...ref, message: 'thanks' }));
    expect(contents(model.calls[moreModel]?.messages ?? [])).toEqual([
      ['user', 'test1'],
      call,
      ['tool', { result: 'increase_by_one', content: { result: 2 } }],
      ['assistant', 'response1'],
      ['assistant', 'response2'],
      ['user', 'thanks'],
    ]);
  });

  test('a result for a call the conversation does not hold is a typed error, and nothing is stored', async () => {
    const { runner, model } = setup({ status: 'pending' });
    await drain(runner.run({ ...ref, message: 'test1' }));
    const before = (await runner.sessionService.get({ appName: 'root_agent', ...ref }))?.events.length;
    const stray = toolMessage('done', { toolCallId: 'nope', name: 'increase_by_one' });
    const error = await drain(runner.run({ ...ref, message: stray })).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(AdkError.isInstance(error) && error.code).toBe('INVALID_ARGUMENT');
    expect((error as Error).message).toContain('"nope"');
    expect((await runner.sessionService.get({ appName: 'root_agent', ...ref }))?.events.length).toBe(before);
    expect(model.calls).toHaveLength(2);
  });
});
