import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { NodeError } from '../errors/node-error.js';
import { WeftError } from '../errors/weft-error.js';
import type { NodeRetryEvent, RunEvent } from '../events/run-event.js';
import { StateGraph } from '../graph/state-graph.js';
import { appendReducer } from '../state/reducers.js';
import { END, START } from '../vocabulary/constants.js';
import type { RetryPolicy } from '../vocabulary/node-options.js';
import { Send } from '../vocabulary/send.js';
import type { NodeContext } from './node-context.js';

const State = z.object({ log: z.array(z.string()).default([]) });
const reducers = { log: appendReducer };

afterEach(() => {
  vi.useRealTimers();
});

/** A graph with one node `work` between START and END. */
function single(
  work: (state: z.infer<typeof State>, ctx: NodeContext) => unknown,
  options: { retry?: RetryPolicy; timeoutMs?: number } = {},
) {
  return new StateGraph(State, { reducers })
    .addNode('work', work as () => { log: string }, options)
    .addEdge(START, 'work')
    .addEdge('work', END)
    .compile();
}

/** A promise that settles only when the node's signal fires (rejecting with its reason). */
function untilAborted(ctx: NodeContext): Promise<never> {
  return new Promise((_, reject) => {
    ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
  });
}

const collectEvents = (events: RunEvent[]) => ({ callbacks: { onEvent: (e: RunEvent) => events.push(e) } });

describe('retries', () => {
  it('retries a failing node with backoff, then succeeds', async () => {
    vi.useFakeTimers();
    const attempts: number[] = [];
    const app = single(
      (_s, ctx) => {
        attempts.push(ctx.attempt);
        if (ctx.attempt < 3) throw new Error(`flaky ${ctx.attempt}`);
        return { log: `ok on ${ctx.attempt}` };
      },
      { retry: { maxAttempts: 3, initialDelayMs: 100, backoffFactor: 3, jitter: false } },
    );
    const events: RunEvent[] = [];
    const run = app.invoke({}, collectEvents(events));
    await vi.advanceTimersByTimeAsync(99);
    expect(attempts).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(299);
    expect(attempts).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(1);
    expect((await run).log).toEqual(['ok on 3']);
    const retries = events.filter((e): e is NodeRetryEvent => e.type === 'node-retry');
    expect(retries.map((e) => [e.node, e.attempt, e.delayMs, e.error.message])).toEqual([
      ['work', 1, 100, 'flaky 1'],
      ['work', 2, 300, 'flaky 2'],
    ]);
    expect(
      events.filter((e) => e.type === 'node-start').map((e) => e.type === 'node-start' && e.attempt),
    ).toEqual([1, 2, 3]);
  });

  it('gives up after maxAttempts with a NodeError carrying the last attempt and the cause', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const cause = new Error('always');
    const app = single(
      () => {
        calls++;
        throw cause;
      },
      { retry: { maxAttempts: 2, initialDelayMs: 10, jitter: false } },
    );
    const events: RunEvent[] = [];
    const run = app.invoke({}, collectEvents(events)).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    const error = await run;
    expect(calls).toBe(2);
    expect(error).toBeInstanceOf(NodeError);
    expect(error).toMatchObject({ code: 'NODE_FAILED', node: 'work', step: 0, attempt: 2, cause });
    expect(events.filter((e) => e.type === 'node-error')).toHaveLength(1);
    expect(events.at(-1)?.type).toBe('run-error');
  });

  it('retries only what retryOn accepts, and never Weft definition errors', async () => {
    let calls = 0;
    const picky = single(
      () => {
        calls++;
        throw new Error('fatal');
      },
      { retry: { maxAttempts: 5, initialDelayMs: 0, retryOn: (e) => e.message !== 'fatal' } },
    );
    await expect(picky.invoke({})).rejects.toMatchObject({ attempt: 1 });
    expect(calls).toBe(1);
    calls = 0;
    const invalid = single(
      () => {
        calls++;
        return { nope: 1 };
      },
      { retry: { maxAttempts: 5, initialDelayMs: 0 } },
    );
    await expect(invalid.invoke({})).rejects.toMatchObject({ code: 'INVALID_UPDATE' });
    expect(calls).toBe(1);
  });

  it('wraps a thrown non-error so nothing is lost', async () => {
    const app = single(() => {
      throw 'plain string';
    });
    const error = await app.invoke({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeError);
    expect((error as NodeError).cause).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('plain string');
  });
});

describe('timeouts', () => {
  it('fails an attempt that runs too long with NODE_TIMEOUT and fires the node’s signal', async () => {
    vi.useFakeTimers();
    let seen: unknown;
    const app = single(
      async (_s, ctx) => {
        try {
          return await untilAborted(ctx);
        } catch (error) {
          seen = error;
          throw error;
        }
      },
      { timeoutMs: 1000 },
    );
    const run = app.invoke({}).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(999);
    expect(seen).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    const error = await run;
    expect(error).toBeInstanceOf(NodeError);
    expect(error).toMatchObject({ code: 'NODE_TIMEOUT', node: 'work' });
    expect(seen).toMatchObject({ code: 'NODE_TIMEOUT' });
  });

  it('retries a timed-out attempt with a fresh timer', async () => {
    vi.useFakeTimers();
    const app = single(
      async (_s, ctx) => {
        if (ctx.attempt === 1) return untilAborted(ctx);
        return { log: `attempt ${ctx.attempt}` };
      },
      { timeoutMs: 50, retry: { maxAttempts: 2, initialDelayMs: 5, jitter: false } },
    );
    const run = app.invoke({});
    await vi.advanceTimersByTimeAsync(55);
    expect((await run).log).toEqual(['attempt 2']);
  });

  it('times out a streaming node between chunks', async () => {
    vi.useFakeTimers();
    const app = single(
      async function* (_s, ctx) {
        yield { log: 'first' };
        await untilAborted(ctx);
      },
      { timeoutMs: 20 },
    );
    const run = app.invoke({}).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(20);
    expect(await run).toMatchObject({ code: 'NODE_TIMEOUT' });
  });

  it('leaves no timer behind when a node finishes in time', async () => {
    vi.useFakeTimers();
    const app = single(async () => ({ log: 'quick' }), { timeoutMs: 10_000 });
    expect((await app.invoke({})).log).toEqual(['quick']);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('abort', () => {
  it('fires running nodes’ signals, starts nothing new and rejects with ABORTED', async () => {
    const controller = new AbortController();
    const started: string[] = [];
    let sawAbort = false;
    const app = new StateGraph(State, { reducers })
      .addNode('running', async (_s, ctx) => {
        started.push('running');
        queueMicrotask(() => controller.abort('user pressed stop'));
        await untilAborted(ctx).catch((error: unknown) => {
          sawAbort = ctx.signal.aborted;
          throw error;
        });
        return {};
      })
      .addNode('next', () => {
        started.push('next');
        return {};
      })
      .addEdge(START, 'running')
      .addEdge('running', 'next')
      .addEdge('next', END)
      .compile();
    const error = await app.invoke({}, { signal: controller.signal }).catch((e: unknown) => e);
    expect(WeftError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'ABORTED', name: 'AbortError', cause: 'user pressed stop' });
    expect(sawAbort).toBe(true);
    expect(started).toEqual(['running']);
  });

  it('rejects while a node ignores its signal', async () => {
    const controller = new AbortController();
    let release!: () => void;
    const app = single(
      () =>
        new Promise((resolve) => {
          release = () => resolve({});
          controller.abort();
        }),
    );
    await expect(app.invoke({}, { signal: controller.signal })).rejects.toMatchObject({ code: 'ABORTED' });
    release();
  });

  it('runs nothing when the signal has already fired', async () => {
    let ran = false;
    const app = single(() => {
      ran = true;
      return {};
    });
    await expect(app.invoke({}, { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'ABORTED' });
    expect(ran).toBe(false);
  });

  it('stops waiting for a retry backoff when aborted', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    let calls = 0;
    const app = single(
      () => {
        calls++;
        throw new Error('flaky');
      },
      { retry: { maxAttempts: 3, initialDelayMs: 60_000, jitter: false } },
    );
    const run = app.invoke({}, { signal: controller.signal }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    expect(await run).toMatchObject({ code: 'ABORTED' });
    expect(calls).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('aborts a failing node’s siblings in the same step', async () => {
    let siblingAborted = false;
    const app = new StateGraph(State, { reducers })
      .addNode('sibling', async (_s, ctx) => {
        await untilAborted(ctx).catch(() => {
          siblingAborted = true;
        });
        return {};
      })
      .addNode('boom', async () => {
        await new Promise<void>((resolve) => setImmediate(resolve));
        throw new Error('boom');
      })
      .addEdge(START, 'sibling')
      .addEdge(START, 'boom')
      .addEdge('sibling', END)
      .addEdge('boom', END)
      .compile();
    await expect(app.invoke({})).rejects.toMatchObject({ node: 'boom' });
    expect(siblingAborted).toBe(true);
  });

  it('stops Send tasks waiting for a concurrency slot', async () => {
    const controller = new AbortController();
    const ran: number[] = [];
    const app = new StateGraph(State, { reducers })
      .addNode('work', async (n: number, ctx) => {
        ran.push(n);
        if (n === 0) controller.abort();
        await untilAborted(ctx);
        return {};
      })
      .addConditionalEdges(START, () => [0, 1, 2, 3].map((n) => new Send('work', n)))
      .addEdge('work', END)
      .compile();
    await expect(app.invoke({}, { signal: controller.signal, concurrency: 1 })).rejects.toMatchObject({
      code: 'ABORTED',
    });
    expect(ran).toEqual([0]);
  });
});
