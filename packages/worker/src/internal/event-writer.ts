import type { RunEvent, RunEventType } from '@weft/compose';
import type { Redis } from 'ioredis';
import { BATCH_KIND, encodeBatch, encodeEvent, SETTLED_KIND, type SettledMarker } from './event-codec.js';
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
 * event: a step emits five or more). One connection keeps commands in order; `flush` waits for the
 * last. Writing never fails the run: the first error is kept and reported by `flush`.
 */
export class RunEventSink {
  #last: Promise<unknown> = Promise.resolve();
  #error: unknown;
  #buffer: string[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly options: Required<EventStreamOptions>,
  ) {}

  /** A listener for `callbacks.onEvent`, or `undefined` when no event is published (zero cost). */
  listener(): ((event: RunEvent) => void) | undefined {
    const { events } = this.options;
    if (events === 'none') return undefined;
    const wanted = events === 'all' ? undefined : new Set<string>(events);
    return (event) => {
      if (wanted && !wanted.has(event.type)) return;
      this.#buffer.push(encodeEvent(event));
      this.#timer ??= setTimeout(() => this.#writeBuffer(), this.options.batchMs);
    };
  }

  /** Appends the marker that tells followers this run settled, and sets the stream's expiry. */
  settled(marker: SettledMarker): void {
    this.#writeBuffer();
    this.#append(SETTLED_KIND, JSON.stringify(marker));
    this.#last = this.redis.pexpire(this.key, this.options.ttlMs).catch((error: unknown) => {
      this.#error ??= error;
    });
  }

  /** Writes what is buffered and waits for every append so far; rethrows the first write error, if any. */
  async flush(): Promise<void> {
    this.#writeBuffer();
    await this.#last;
    if (this.#error !== undefined) throw this.#error;
  }

  #writeBuffer(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#buffer.length === 0) return;
    const body = encodeBatch(this.#buffer);
    this.#buffer = [];
    this.#append(BATCH_KIND, body);
  }

  #append(kind: string, body: string): void {
    this.#last = this.redis
      .xadd(this.key, 'MAXLEN', '~', this.options.maxLength, '*', 'k', kind, 'd', body)
      .catch((error: unknown) => {
        this.#error ??= error;
      });
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
  return (threadId) => new RunEventSink(redis, keys.events(threadId), resolved);
}
