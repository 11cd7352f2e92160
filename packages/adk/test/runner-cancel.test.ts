import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  AdkError,
  type AgentMiddleware,
  ChatModelAgent,
  MemorySessionService,
  Runner,
  tool,
} from '../src/index.js';
import { drain, ScriptedChatModel } from '../src/testing/index.js';

/** A two-round agent whose tools log when they start and can trigger a cancel. */
function setup(
  onToolStart: (runner: Runner, name: string) => void,
  onModelCall: (runner: Runner, call: number) => void = () => undefined,
) {
  const log: string[] = [];
  let runner!: Runner;
  const step = (name: string) =>
    tool({
      name,
      description: `does ${name}`,
      parameters: z.object({}),
      execute: async (_args, ctx) => {
        log.push(`start ${name}`);
        onToolStart(runner, name);
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, 30);
          ctx.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(ctx.signal.reason);
          });
        });
        log.push(`end ${name}`);
        return `${name} done`;
      },
    });
  const model = new ScriptedChatModel([
    { toolCalls: [{ name: 'first' }] },
    { toolCalls: [{ name: 'second' }] },
    'all done',
  ]);
  let calls = 0;
  const watch: AgentMiddleware = {
    beforeModel: () => {
      onModelCall(runner, ++calls);
    },
  };
  const agent = new ChatModelAgent({
    name: 'worker',
    model,
    tools: [step('first'), step('second')],
    middleware: [watch],
  });
  runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
  return { runner, log, model };
}

describe('runner.cancel', () => {
  test('immediate: the running tool sees its signal, nothing starts afterwards, the run ends cancelled', async () => {
    const { runner, log, model } = setup(
      (r, name) => name === 'first' && r.cancel({ userId: 'u', sessionId: 's' }),
    );
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' }));
    expect(log).toEqual(['start first']);
    expect(model.calls).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ turnComplete: true, error: { code: 'CANCELLED' } });
  });

  test('afterTools: the running tool finishes, the model is not called again, and resume continues', async () => {
    const { runner, log, model } = setup(
      (r, name) => name === 'first' && r.cancel({ userId: 'u', sessionId: 's' }, { mode: 'afterTools' }),
    );
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' }));
    expect(log).toEqual(['start first', 'end first']);
    expect(model.calls).toHaveLength(1);
    expect(events.at(-1)?.interrupts?.[0]?.value).toEqual({ type: 'cancelled', at: 'afterTools' });
    await drain(runner.resume({ userId: 'u', sessionId: 's' }));
    expect(log).toEqual(['start first', 'end first', 'start second', 'end second']);
    expect(model.calls).toHaveLength(3);
  });

  test('afterModel: requested during a tool, it stops after the next model call, before its tools', async () => {
    const { runner, log, model } = setup(
      (r, name) => name === 'first' && r.cancel({ userId: 'u', sessionId: 's' }, { mode: 'afterModel' }),
    );
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' }));
    expect(model.calls).toHaveLength(2);
    expect(log).toEqual(['start first', 'end first']);
    expect(events.at(-1)?.interrupts?.[0]?.value).toEqual({ type: 'cancelled', at: 'afterModel' });
    const resumed = await drain(runner.resume({ userId: 'u', sessionId: 's' }));
    expect(log).toEqual(['start first', 'end first', 'start second', 'end second']);
    expect(resumed.at(-1)).toMatchObject({ turnComplete: true });
    expect(resumed.at(-1)?.interrupts).toBeUndefined();
  });

  test('a safe-point cancel escalates to immediate after its timeout', async () => {
    const { runner, log } = setup(
      (r, name) =>
        name === 'first' && r.cancel({ userId: 'u', sessionId: 's' }, { mode: 'afterModel', timeoutMs: 5 }),
    );
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' }));
    expect(log).toEqual(['start first']);
    expect(events.at(-1)).toMatchObject({ error: { code: 'CANCELLED' } });
  });

  test('combined afterModel + afterTools: requested during a tool, it stops after that tool', async () => {
    const { runner, log, model } = setup(
      (r, name) =>
        name === 'first' && r.cancel({ userId: 'u', sessionId: 's' }, { mode: ['afterModel', 'afterTools'] }),
    );
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' }));
    expect(log).toEqual(['start first', 'end first']);
    expect(model.calls).toHaveLength(1);
    expect(events.at(-1)?.interrupts?.[0]?.value).toEqual({ type: 'cancelled', at: 'afterTools' });
    await drain(runner.resume({ userId: 'u', sessionId: 's' }));
    expect(log).toEqual(['start first', 'end first', 'start second', 'end second']);
  });

  test('combined afterModel + afterTools: requested during a model call, it stops before its tools', async () => {
    const { runner, log, model } = setup(
      () => undefined,
      (r, call) =>
        call === 1 && r.cancel({ userId: 'u', sessionId: 's' }, { mode: ['afterTools', 'afterModel'] }),
    );
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' }));
    expect(model.calls).toHaveLength(1);
    expect(log).toEqual([]);
    expect(events.at(-1)?.interrupts?.[0]?.value).toEqual({ type: 'cancelled', at: 'afterModel' });
    const resumed = await drain(runner.resume({ userId: 'u', sessionId: 's' }));
    expect(log).toEqual(['start first', 'end first', 'start second', 'end second']);
    expect(resumed.at(-1)).toMatchObject({ turnComplete: true });
  });

  test('a combined cancel escalates to immediate after its timeout', async () => {
    const { runner, log } = setup(
      (r, name) =>
        name === 'first' && r.cancel({ userId: 'u', sessionId: 's' }, { mode: ['afterModel'], timeoutMs: 5 }),
    );
    const events = await drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' }));
    expect(log).toEqual(['start first']);
    expect(events.at(-1)).toMatchObject({ error: { code: 'CANCELLED' } });
  });

  test('a mode that is not a cancel mode is a typed error naming mode', () => {
    const { runner } = setup(() => undefined);
    const cancel = (mode: unknown) => () =>
      runner.cancel({ userId: 'u', sessionId: 's' }, { mode: mode as 'afterModel' });
    for (const mode of [[], ['afterModel', 'soon'], 'later', ['immediate']]) {
      expect(cancel(mode)).toThrow(AdkError);
      expect(cancel(mode)).toThrow(/"mode"/);
    }
    expect(runner.cancel({ userId: 'u', sessionId: 's' }, { mode: ['afterModel', 'afterTools'] })).toBe(
      false,
    );
  });

  test('a new turn after an immediate cancel answers the dangling tool call so the history stays valid', async () => {
    const { runner, model } = setup(
      (r, name) => name === 'first' && r.cancel({ userId: 'u', sessionId: 's' }),
    );
    await drain(runner.run({ userId: 'u', sessionId: 's', message: 'go' }));
    await drain(runner.run({ userId: 'u', sessionId: 's', message: 'again' })).catch(() => undefined);
    const sent = model.calls[1]?.messages ?? [];
    const roles = sent.map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(sent[2]).toMatchObject({
      role: 'tool',
      toolCallId: (sent[1] as unknown as { toolCalls: { id: string }[] }).toolCalls[0]?.id,
    });
  });
});
