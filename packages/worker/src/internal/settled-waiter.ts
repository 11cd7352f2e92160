import type { Redis } from 'ioredis';
import { WorkerError } from '../worker-error.js';

/**
 * Options of `handle.result()`.
 *
 * @example
 * ```ts
 * const counter = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END);
 * const checkpointer = new MemoryCheckpointer();
 * const graphs = { counter: counter.compile({ checkpointer }) };
 * const client = createClient<typeof graphs>({ connection: 'redis://127.0.0.1:6379' });
 * const handle = await client.submit('counter', { count: 0 });
 * const cancelled = new AbortController(); // e.g. aborted when the HTTP request that waits goes away
 * const result = await handle.result({ timeoutMs: 60_000, signal: cancelled.signal });
 * console.log(result.status); // 'done'
 * ```
 */
export interface WaitOptions {
  readonly signal?: AbortSignal | undefined;
  /** Give up after this long (rejects with `TIMEOUT`); default: wait as long as it takes. */
  readonly timeoutMs?: number | undefined;
}

/**
 * Waits for runs to settle, for every `result()` of one client over one subscriber connection: workers
 * publish a run's id on the queue's settled channel after storing its outcome. The waiter checks the
 * record, then sleeps until a message for that run or a periodic re-check (which covers messages lost
 * while the connection was down).
 */
export class SettledWaiter {
  readonly #wakers = new Map<string, Set<() => void>>();
  #subscribed: Promise<unknown> | undefined;

  constructor(
    private readonly subscriber: Redis,
    private readonly channel: string,
    private readonly recheckMs = 2000,
  ) {
    subscriber.on('message', (from: string, runId: string) => {
      if (from !== channel) return;
      for (const wake of this.#wakers.get(runId) ?? []) wake();
    });
  }

  /** Resolves with `check()`'s first defined value; checks again on every message for `runId`. */
  async waitFor<T>(
    runId: string,
    check: () => Promise<T | undefined>,
    options: WaitOptions = {},
  ): Promise<T> {
    this.#subscribed ??= this.subscriber.subscribe(this.channel);
    await this.#subscribed;
    const deadline =
      options.timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + options.timeoutMs;
    for (;;) {
      const wake = this.#arm(runId);
      try {
        const value = await check();
        if (value !== undefined) return value;
        if (options.signal?.aborted) throw options.signal.reason;
        const left = deadline - Date.now();
        if (left <= 0)
          throw new WorkerError('TIMEOUT', `run "${runId}" did not settle in ${options.timeoutMs} ms`);
        await wake.sleep(Math.min(left, this.recheckMs), options.signal);
      } finally {
        wake.disarm();
      }
    }
  }

  #arm(runId: string): { sleep: (ms: number, signal?: AbortSignal) => Promise<void>; disarm: () => void } {
    let resolve: () => void = () => undefined;
    const woken = new Promise<void>((done) => {
      resolve = done;
    });
    let set = this.#wakers.get(runId);
    if (!set) this.#wakers.set(runId, (set = new Set()));
    set.add(resolve);
    let timer: NodeJS.Timeout | undefined;
    let abortSignal: AbortSignal | undefined;
    return {
      sleep: (ms, signal) => {
        timer = setTimeout(resolve, ms);
        abortSignal = signal;
        signal?.addEventListener('abort', resolve, { once: true });
        return woken;
      },
      disarm: () => {
        clearTimeout(timer);
        abortSignal?.removeEventListener('abort', resolve);
        set.delete(resolve);
        if (set.size === 0) this.#wakers.delete(runId);
      },
    };
  }
}
