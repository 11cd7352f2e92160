// A run's stream events, kept durably in the Store (one document per event, keyed by its sequence
// number, which is also its SSE id) so a client that reconnects — to this process or another one over
// the same store — gets every event it missed, then the live rest.
import type { JsonValue, Store } from '@weft/compose';
import { RESERVED_LABEL, sortableKey } from '../records/records.js';

/** One stream event as sent over SSE. */
export interface StreamEvent {
  /** The SSE id: the event's position in its run, from 0. */
  readonly id: number;
  readonly event: string;
  readonly data: JsonValue;
}

/** How long and how many of a run's events are kept. */
export interface EventRetention {
  /** Milliseconds a run's events are kept after they were written (default one hour). */
  readonly ttlMs: number;
  /** Most events kept per run; older ones are dropped (default 10,000). */
  readonly maxPerRun: number;
}

const eventsNs = (runId: string) => [RESERVED_LABEL, 'events', runId];

/** Appends and reads runs' events; wakes local readers at once, remote ones on their next poll. */
export class EventLog {
  readonly #store: Store;
  readonly #retention: EventRetention;
  readonly #next = new Map<string, number>();
  readonly #waiters = new Map<string, Set<() => void>>();

  constructor(store: Store, retention: EventRetention) {
    this.#store = store;
    this.#retention = retention;
  }

  /** Stores an event of a run this process executes, then wakes its readers. */
  async append(runId: string, event: string, data: JsonValue): Promise<number> {
    // A run continued by another process (handed back, recovered) numbers on after its stored events.
    const id = this.#next.get(runId) ?? ((await this.read(runId, -1)).at(-1)?.id ?? -1) + 1;
    this.#next.set(runId, id + 1);
    await this.#store.put(
      eventsNs(runId),
      sortableKey(id),
      { id, event, data },
      {
        index: false,
        ttlMs: this.#retention.ttlMs,
      },
    );
    const dropped = id - this.#retention.maxPerRun;
    if (dropped >= 0) await this.#store.delete(eventsNs(runId), sortableKey(dropped));
    this.wake(runId);
    return id;
  }

  /** Wakes the readers of a run (an event arrived, or the run ended). */
  wake(runId: string): void {
    const waiters = this.#waiters.get(runId);
    if (!waiters) return;
    this.#waiters.delete(runId);
    for (const wake of waiters) wake();
  }

  /** The stored events of a run after `afterId` (all of them for -1), in order. */
  async read(runId: string, afterId: number): Promise<StreamEvent[]> {
    const items = await this.#store.search(eventsNs(runId), {
      filter: { id: { $gt: afterId } },
      limit: this.#retention.maxPerRun + 1,
    });
    return items.map((item) => item.value as unknown as StreamEvent).sort((a, b) => a.id - b.id);
  }

  /** Resolves when the run gets a new event or ends here, or after `pollMs` (for runs elsewhere). */
  waitFor(runId: string, pollMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let waiters = this.#waiters.get(runId);
      if (!waiters) this.#waiters.set(runId, (waiters = new Set()));
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.#waiters.get(runId)?.delete(done);
        resolve();
      };
      const timer = setTimeout(done, pollMs);
      signal?.addEventListener('abort', done, { once: true });
      waiters.add(done);
    });
  }

  /** Drops a run's events. */
  async drop(runId: string): Promise<void> {
    for (const event of await this.read(runId, -1))
      await this.#store.delete(eventsNs(runId), sortableKey(event.id));
    this.#next.delete(runId);
  }

  /** Forgets the per-run counter of a run that ended (its events stay stored). */
  forget(runId: string): void {
    this.#next.delete(runId);
  }
}
