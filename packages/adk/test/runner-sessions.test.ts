import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { ChatModelAgent, MemorySessionService, Runner, tool } from '../src/index.js';
import { drain, ScriptedChatModel } from '../src/testing/index.js';

describe('Runner sessions', () => {
  test('100 immediate back-to-back turns on one session all run', async () => {
    const model = new ScriptedChatModel(Array.from({ length: 100 }, (_, i) => `reply ${i}`));
    const agent = new ChatModelAgent({ name: 'echo', model });
    const runner = new Runner({ agent, sessionService: new MemorySessionService() });
    const turn = (n: number) => runner.run({ userId: 'u', sessionId: 's', message: `turn ${n}` });
    // The next turn starts in the very callback that sees the previous stream end.
    const readThenStart = (events: AsyncIterator<unknown>, next: () => void): Promise<void> =>
      events.next().then((r) => (r.done ? next() : readThenStart(events, next)));
    const ends: unknown[] = [];
    let current = turn(0);
    for (let n = 1; n <= 100; n++) {
      const stream = current;
      await readThenStart(stream, () => {
        if (n < 100) current = turn(n);
      });
      ends.push(n);
    }
    expect(ends).toHaveLength(100);
    expect(model.calls).toHaveLength(100);
  });

  test('cancel stops the session of that user only', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    const wait = tool({
      name: 'wait',
      description: 'waits for the test',
      parameters: z.object({}),
      execute: async (_args, ctx) => {
        started.push('wait');
        await new Promise<void>((resolve, reject) => {
          void gate.then(resolve);
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
        });
        return 'waited';
      },
    });
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'wait' }] }, 'done']);
    const agent = new ChatModelAgent({ name: 'waiter', model, tools: [wait] });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
    const first = drain(runner.run({ userId: 'alice', sessionId: 's', message: 'go' }));
    while (started.length < 1) await new Promise((resolve) => setImmediate(resolve));
    expect(runner.cancel({ userId: 'bob', sessionId: 's' })).toBe(false);
    expect(runner.cancel({ userId: 'alice', sessionId: 'other' })).toBe(false);
    expect(runner.cancel({ userId: 'alice', sessionId: 's' })).toBe(true);
    const events = await first;
    release();
    expect(events.at(-1)).toMatchObject({ turnComplete: true, error: { code: 'CANCELLED' } });
  });

  test('a user whose id ends like another user id is not cancelled with it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let running = 0;
    const wait = tool({
      name: 'wait',
      description: 'waits for the test',
      parameters: z.object({}),
      execute: async () => {
        running++;
        await gate;
        return 'waited';
      },
    });
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'wait' }] },
      { toolCalls: [{ name: 'wait' }] },
      'done',
      'done',
    ]);
    const agent = new ChatModelAgent({ name: 'waiter', model, tools: [wait] });
    const runner = new Runner({ agent, sessionService: new MemorySessionService(), streaming: false });
    const a = drain(runner.run({ userId: 'x/a', sessionId: 's', message: 'go' }));
    const b = drain(runner.run({ userId: 'a', sessionId: 's', message: 'go' }));
    while (running < 2) await new Promise((resolve) => setImmediate(resolve));
    expect(runner.cancel({ userId: 'a', sessionId: 's' })).toBe(true);
    release();
    const [eventsA, eventsB] = await Promise.all([a, b]);
    expect(eventsB.at(-1)?.error?.code).toBe('CANCELLED');
    expect(eventsA.at(-1)?.error).toBeUndefined();
  });
});
