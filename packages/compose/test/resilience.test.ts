import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  appendReducer,
  END,
  type NodeContext,
  NodeError,
  START,
  StateGraph,
  WeftError,
} from '../src/index.js';

const Log = z.object({ log: z.array(z.string()).default([]) });
const reducers = { log: appendReducer };

afterEach(() => {
  vi.useRealTimers();
});

/** Settles only when the node's signal fires. */
const untilAborted = (ctx: NodeContext) =>
  new Promise<never>((_, reject) =>
    ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }),
  );

describe('resilience scenarios', () => {
  it('retries a flaky node with backoff, then succeeds', async () => {
    vi.useFakeTimers();
    const attempts: number[] = [];
    const retried: number[] = [];
    const app = new StateGraph(Log, { reducers })
      .addNode(
        'fetch',
        (_s, ctx) => {
          attempts.push(ctx.attempt);
          if (ctx.attempt < 3) throw new Error('503 Service Unavailable');
          return { log: `fetched on attempt ${ctx.attempt}` };
        },
        { retry: { maxAttempts: 4, initialDelayMs: 200, backoffFactor: 2, jitter: false } },
      )
      .addEdge(START, 'fetch')
      .addEdge('fetch', END)
      .compile();
    const run = app.invoke(
      {},
      { callbacks: { onEvent: (e) => void (e.type === 'node-retry' && retried.push(e.delayMs)) } },
    );
    await vi.advanceTimersByTimeAsync(200 + 400);
    expect(await run).toEqual({ log: ['fetched on attempt 3'] });
    expect(attempts).toEqual([1, 2, 3]);
    expect(retried).toEqual([200, 400]);
  });

  it('times out a hanging node and fails the run with NODE_TIMEOUT', async () => {
    vi.useFakeTimers();
    let sawSignal = false;
    const app = new StateGraph(Log, { reducers })
      .addNode(
        'hang',
        async (_s, ctx) => {
          await untilAborted(ctx).catch((error: unknown) => {
            sawSignal = true;
            throw error;
          });
          return {};
        },
        { timeoutMs: 5000 },
      )
      .addEdge(START, 'hang')
      .addEdge('hang', END)
      .compile();
    const run = app.invoke({}).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5000);
    const error = await run;
    expect(error).toBeInstanceOf(NodeError);
    expect(error).toMatchObject({ code: 'NODE_TIMEOUT', node: 'hang' });
    expect(sawSignal).toBe(true);
  });

  it('aborts mid-run: the running node sees its signal, nothing new starts, invoke rejects ABORTED', async () => {
    const controller = new AbortController();
    const started: string[] = [];
    const app = new StateGraph(Log, { reducers })
      .addNode('first', () => {
        started.push('first');
        return { log: 'first' };
      })
      .addNode('second', async (_s, ctx) => {
        started.push('second');
        setImmediate(() => controller.abort(new Error('user cancelled')));
        return untilAborted(ctx);
      })
      .addNode('third', () => {
        started.push('third');
        return {};
      })
      .addEdge(START, 'first')
      .addEdge('first', 'second')
      .addEdge('second', 'third')
      .addEdge('third', END)
      .compile();
    const events: string[] = [];
    const error = await app
      .invoke({}, { signal: controller.signal, callbacks: { onEvent: (e) => events.push(e.type) } })
      .catch((e: unknown) => e);
    expect(WeftError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'ABORTED' });
    expect((error as Error).message).toContain('user cancelled');
    expect(started).toEqual(['first', 'second']);
    expect(events.at(-1)).toBe('run-error');
  });
});
