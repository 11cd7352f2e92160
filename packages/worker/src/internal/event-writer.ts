import type { RunEvent, RunEventType } from '@weft/compose';
import type { ChainableCommander, Redis } from 'ioredis';
import { BATCH_KIND, encodeBatch, encodeEvent, SETTLED_KIND, type SettledMarker } from './event-codec.js';
import { FlushSchedule } from './flush-schedule.js';
import type { QueueKeys } from './keys.js';

/**
 * How a worker publishes run events.
 *
 * @example
 * ```ts
 * const counter = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END);
 * const checkpointer = new MemoryCheckpointer();
 * const graphs = { counter: counter.compile({ checkpointer }) };
 * const worker = await createWorker({
 *   graphs,
 *   connection: 'redis://127.0.0.1:6379',
 *   checkpointer,
 *   events: { events: ['run-start', 'node-end', 'run-end'], ttlMs: 3_600_000 }, // keep an hour of these only
 * });
 * ```
 */
export interface EventStreamOptions {
  /** Which events to publish: `all` (default), `none`, or a list of event types. */
  readonly events?: 'all' | 'none' | readonly RunEventType[];
  /** Entries kept per thread stream (approximate, `XADD MAXLEN ~`); default 10 000. */
  readonly maxLength?: number;
  /** A thread's stream expires this long after its last settled run; default 24 h. */
  readonly ttlMs?: number;
  /** Events are written in batches, at most this long after they happen; default 5 ms (0: each tick). */
  readonly batchMs?: number;
}

/**
 * Appends one run's events to its thread's Redis stream, in order, without waiting for replies: events
 * are buffered for up to `batchMs` and written as one stream entry (one command instead of one per
 * event: a step emits five or more), on a timer the worker's sinks share (`FlushSchedule`). One
 * connection keeps commands in order; `flush` waits for the last. Writing never fails the run: the
 * first error is kept and reported by `flush`. When the run settles, the last batch and the settled
 * marker go into the transaction that stores the outcome.
 */
export class RunEventSink {
  #last: Promise<unknown> = Promise.resolve();
  #error: unknown;
  #buffer: string[] = [];
  readonly #write = (): void => this.#writeBuffer();

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly options: Required<EventStreamOptions>,
    private readonly schedule: FlushSchedule,
  ) {}

  /** A listener for `callbacks.onEvent`, or `undefined` when no event is published (zero cost). */
  listener(): ((event: RunEvent) => void) | undefined {
    const { events } = this.options;
    if (events === 'none') return undefined;
    const wanted = events === 'all' ? undefined : new Set<string>(events);
    return (event) => {
      if (wanted && !wanted.has(event.type)) return;
      if (this.#buffer.push(encodeEvent(event)) === 1) this.schedule.request(this.#write);
    };
  }

  /** Waits for the appends sent so far (not for the buffer); never throws (`flush` reports errors). */
  async idle(): Promise<void> {
    await this.#last;
  }

  /** Adds what is buffered to `multi` as one entry, instead of writing it on its own. */
  bufferedInto(multi: ChainableCommander): void {
    const body = this.#takeBuffer();
    if (body !== undefined) this.#xadd(multi, BATCH_KIND, body);
  }

  /** Adds the marker that tells followers this run settled, and the stream's expiry, to `multi`. */
  settledInto(multi: ChainableCommander, marker: SettledMarker): void {
    this.#xadd(multi, SETTLED_KIND, JSON.stringify(marker));
    multi.pexpire(this.key, this.options.ttlMs);
  }

  /** Writes what is buffered and waits for every append so far; rethrows the first write error, if any. */
  async flush(): Promise<void> {
    this.#writeBuffer();
    await this.#last;
    if (this.#error !== undefined) throw this.#error;
  }

  #writeBuffer(): void {
    const body = this.#takeBuffer();
    if (body === undefined) return;
    this.#last = this.redis
      .xadd(this.key, 'MAXLEN', '~', this.options.maxLength, '*', 'k', BATCH_KIND, 'd', body)
      .catch((error: unknown) => {
        this.#error ??= error;
      });
  }

  /** Empties the buffer; the body of its entry, `undefined` when empty. */
  #takeBuffer(): string | undefined {
    if (this.#buffer.length === 0) return undefined;
    this.schedule.cancel(this.#write);
    const body = encodeBatch(this.#buffer);
    this.#buffer = [];
    return body;
  }

  #xadd(multi: ChainableCommander, kind: string, body: string): void {
    multi.xadd(this.key, 'MAXLEN', '~', this.options.maxLength, '*', 'k', kind, 'd', body);
  }
}

/** Creates sinks for the runs of one queue. */
export function eventSinks(
  redis: Redis,
  keys: QueueKeys,
  options: EventStreamOptions = {},
): (threadId: string) => RunEventSink {
  const resolved: Required<EventStreamOptions> = {
    events: options.events ?? 'all',
    maxLength: options.maxLength ?? 10_000,
    ttlMs: options.ttlMs ?? 24 * 60 * 60 * 1000,
    batchMs: options.batchMs ?? 5,
  };
  const schedule = new FlushSchedule(resolved.batchMs);
  return (threadId) => new RunEventSink(redis, keys.events(threadId), resolved, schedule);
}
