import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolError } from '../errors/tool-error.js';
import type { ToolCall } from '../message/message.js';
import { messageText } from '../message/message-text.js';
import { executeToolCalls, type ToolEmitEvent } from './execute-tool-calls.js';
import { MemorySessionState } from './session-state.js';
import { tool } from './tool.js';

const add = tool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});
const echo = tool({
  name: 'echo',
  description: 'Returns its text',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});
const boom = tool({
  name: 'boom',
  description: 'Always fails',
  parameters: z.object({}),
  execute: () => {
    throw new Error('disk full');
  },
});
const hang = tool({
  name: 'hang',
  description: 'Never finishes (and ignores its signal)',
  parameters: z.object({}),
  execute: () => new Promise<never>(() => {}),
});

const call = (id: string, name: string, args: unknown): ToolCall => ({
  id,
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});

describe('executeToolCalls', () => {
  it('answers each call with a tool message, in the order of the calls', async () => {
    const results = await executeToolCalls(
      [call('c1', 'add', { a: 1, b: 2 }), call('c2', 'echo', { text: 'hi' })],
      [add, echo],
    );
    expect(results).toEqual([
      {
        role: 'tool',
        toolCallId: 'c1',
        name: 'add',
        content: [{ type: 'json', value: 3 }],
        status: 'success',
      },
      { role: 'tool', toolCallId: 'c2', name: 'echo', content: 'hi', status: 'success' },
    ]);
  });

  it('keeps the order of the calls when later calls finish first', async () => {
    let openGate = () => {};
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    const slow = tool({
      name: 'slow',
      description: 'waits for the gate',
      parameters: z.object({}),
      execute: async () => {
        await gate;
        return 'slow';
      },
    });
    const fastFirst = tool({
      name: 'fast',
      description: 'opens the gate',
      parameters: z.object({}),
      execute: () => {
        openGate();
        return 'fast';
      },
    });
    const results = await executeToolCalls([call('1', 'slow', {}), call('2', 'fast', {})], [slow, fastFirst]);
    expect(results.map((message) => message.content)).toEqual(['slow', 'fast']);
  });

  it('runs at most `concurrency` calls at once', async () => {
    let running = 0;
    let peak = 0;
    const tracked = tool({
      name: 'tracked',
      description: 'counts concurrent runs',
      parameters: z.object({ n: z.number() }),
      execute: async ({ n }) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setImmediate(resolve));
        running--;
        return n;
      },
    });
    const calls = [1, 2, 3, 4, 5].map((n) => call(`c${n}`, 'tracked', { n }));
    const results = await executeToolCalls(calls, [tracked], { concurrency: 2 });
    expect(peak).toBe(2);
    expect(results.map((message) => messageText(message))).toEqual(['1', '2', '3', '4', '5']);
    peak = 0;
    await executeToolCalls(calls, [tracked]);
    expect(peak).toBe(5);
  });

  it('turns invalid JSON, schema failures, unknown tools and thrown errors into readable tool messages', async () => {
    const results = await executeToolCalls(
      [
        call('c1', 'add', '{"a":1,'),
        call('c2', 'add', { a: 'one', b: 2 }),
        call('c3', 'multiply', { a: 1 }),
        call('c4', 'boom', {}),
        call('c5', 'echo', { text: 'still runs' }),
      ],
      [add, echo, boom],
    );
    expect(results.map((message) => message.status)).toEqual(['error', 'error', 'error', 'error', 'success']);
    expect(results.map((message) => message.toolCallId)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    const [json, schema, unknown, thrown] = results.map((message) => messageText(message));
    expect(json).toMatch(/Invalid arguments for tool "add": not valid JSON/);
    expect(schema).toMatch(/- a: .*expected number/);
    expect(unknown).toBe('Error: Unknown tool "multiply". Available tools: "add", "echo", "boom".');
    expect(thrown).toBe('Error: Tool "boom" failed: disk full');
  });

  it("with onToolError: 'throw', rejects with a ToolError naming the tool and call id", async () => {
    const failure = await executeToolCalls(
      [call('c1', 'echo', { text: 'ok' }), call('c2', 'boom', {})],
      [echo, boom],
      {
        onToolError: 'throw',
      },
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolError);
    expect(failure).toMatchObject({ code: 'TOOL_ERROR', tool: 'boom', toolCallId: 'c2' });
    expect((failure as ToolError).cause).toMatchObject({ message: 'disk full' });

    const missing = executeToolCalls([call('x1', 'nope', {})], [echo], { onToolError: 'throw' });
    await expect(missing).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND', tool: 'nope', toolCallId: 'x1' });
    const invalid = executeToolCalls([call('x2', 'echo', {})], [echo], { onToolError: 'throw' });
    await expect(invalid).rejects.toMatchObject({ code: 'INVALID_TOOL_ARGUMENTS', tool: 'echo' });
  });

  it('times out a call (the tool setting wins over the batch default) and aborts its signal', async () => {
    let toolSignal: AbortSignal | undefined;
    const watched = tool({
      name: 'watched',
      description: 'records its signal',
      parameters: z.object({}),
      timeoutMs: 5,
      execute: (_args, context) => {
        toolSignal = context.signal;
        return new Promise<never>(() => {});
      },
    });
    const results = await executeToolCalls(
      [call('c1', 'watched', {}), call('c2', 'hang', {})],
      [watched, hang],
      {
        timeoutMs: 10,
      },
    );
    expect(messageText(results[0]!)).toBe('Error: Tool "watched" timed out after 5 ms.');
    expect(messageText(results[1]!)).toBe('Error: Tool "hang" timed out after 10 ms.');
    expect(toolSignal?.aborted).toBe(true);
    expect(toolSignal?.reason).toMatchObject({ code: 'TOOL_TIMEOUT' });
    await expect(
      executeToolCalls([call('c3', 'hang', {})], [hang], { timeoutMs: 1, onToolError: 'throw' }),
    ).rejects.toMatchObject({ code: 'TOOL_TIMEOUT', tool: 'hang', toolCallId: 'c3' });
  });

  it('on abort, keeps finished results and answers the other calls "aborted"', async () => {
    const controller = new AbortController();
    const stopper = tool({
      name: 'stopper',
      description: 'cancels the run',
      parameters: z.object({}),
      execute: async () => {
        await new Promise((resolve) => setImmediate(resolve)); // let the first call finish
        controller.abort();
        return 'stopped';
      },
    });
    const results = await executeToolCalls(
      [
        call('c1', 'echo', { text: 'done' }),
        call('c2', 'stopper', {}),
        call('c3', 'hang', {}),
        call('c4', 'echo', { text: 'never' }),
      ],
      [echo, stopper, hang],
      { signal: controller.signal, concurrency: 2 },
    );
    expect(results.map((message) => message.toolCallId)).toEqual(['c1', 'c2', 'c3', 'c4']);
    expect(results[0]?.content).toBe('done');
    // the stopper itself is cut off too: the abort lands before its return value
    expect(
      results
        .slice(1)
        .every((message) => message.status === 'error' && /^Aborted/.test(messageText(message))),
    ).toBe(true);
  });

  it('answers every call "aborted" when the signal fired before the batch', async () => {
    let ran = false;
    const spy = tool({
      name: 'spy',
      description: 's',
      parameters: z.object({}),
      execute: () => (ran = true),
    });
    const results = await executeToolCalls([call('c1', 'spy', {})], [spy], { signal: AbortSignal.abort() });
    expect(ran).toBe(false);
    expect(messageText(results[0]!)).toMatch(/^Aborted: .*"spy"/);
  });

  it('gives tools their call id, an emit function and the shared session state', async () => {
    const events: ToolEmitEvent[] = [];
    const state = new MemorySessionState();
    const reporter = tool({
      name: 'reporter',
      description: 'emits progress and writes state',
      parameters: z.object({ step: z.number() }),
      execute: ({ step }, context) => {
        context.emit({ step, call: context.toolCallId });
        context.state.set(`step-${step}`, context.toolName);
        return step;
      },
    });
    await executeToolCalls(
      [call('a', 'reporter', { step: 1 }), call('b', 'reporter', { step: 2 })],
      [reporter],
      {
        state,
        onEmit: (event) => events.push(event),
      },
    );
    expect(events).toEqual([
      { tool: 'reporter', toolCallId: 'a', data: { step: 1, call: 'a' } },
      { tool: 'reporter', toolCallId: 'b', data: { step: 2, call: 'b' } },
    ]);
    expect(state.toJSON()).toEqual({ 'step-1': 'reporter', 'step-2': 'reporter' });
  });

  it('reports results that cannot be converted to JSON, and sends undefined as empty text', async () => {
    const cyclic = tool({
      name: 'cyclic',
      description: 'returns a cycle',
      parameters: z.object({}),
      execute: () => {
        const value: Record<string, unknown> = {};
        value.self = value;
        return value;
      },
    });
    const nothing = tool({
      name: 'nothing',
      description: 'n',
      parameters: z.object({}),
      execute: () => undefined,
    });
    const [bad, empty] = await executeToolCalls(
      [call('1', 'cyclic', {}), call('2', 'nothing', {})],
      [cyclic, nothing],
    );
    expect(bad?.status).toBe('error');
    expect(messageText(bad!)).toMatch(/returned a value that is not JSON/);
    expect(empty).toMatchObject({ content: '', status: 'success' });
  });

  it('rejects duplicate tool names and a concurrency below 1 before running anything', async () => {
    await expect(executeToolCalls([call('1', 'add', { a: 1, b: 1 })], [add, add])).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/two tools are named "add"/),
    });
    for (const concurrency of [0, -1, Number.NaN]) {
      await expect(executeToolCalls([], [add], { concurrency })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
    }
  });
});
