import type {
  ErrorInfo,
  InterruptInfo,
  RunInfo,
  RunStatus,
  WireEvent,
  WireRunEvent,
} from '../shared/wire.ts';

/** Events kept per run for late subscribers; beyond it, streamed tokens are no longer buffered. */
const maxBufferedEvents = 20_000;

/** A subscriber of a run's events. */
export interface RunListener {
  /** One event (the backlog first, then live ones, in `seq` order). */
  readonly event: (event: WireEvent) => void;
  /** The run ended (after its last event): how it ended is `info`. */
  readonly end: () => void;
}

/** How a run ended. */
export interface RunOutcome {
  readonly status: Exclude<RunStatus, 'running'>;
  readonly steps: number;
  readonly interrupts: readonly InterruptInfo[];
  readonly checkpointId?: string | undefined;
  readonly error?: ErrorInfo;
}

/**
 * One run in the server: its info, the buffer of its events (so a subscriber that comes late gets the
 * backlog first), its subscribers and its abort controller.
 *
 * @example
 * ```ts
 * const stop = run.subscribe(-1, { event: (e) => console.log(e.type), end: () => console.log('done') });
 * ```
 */
export class LiveRun {
  readonly controller = new AbortController();
  readonly events: WireEvent[] = [];
  #info: RunInfo;
  #steps = 0;
  #seq = 0;
  readonly #listeners = new Set<RunListener>();
  readonly #finished: Promise<void>;
  #resolveFinished: () => void = () => undefined;

  constructor(info: Omit<RunInfo, 'status' | 'steps' | 'interrupts' | 'startedAt'>) {
    this.#info = { ...info, status: 'running', steps: 0, interrupts: [], startedAt: Date.now() };
    this.#finished = new Promise((resolve) => {
      this.#resolveFinished = resolve;
    });
  }

  /** The run's current info. */
  get info(): RunInfo {
    return { ...this.#info, steps: this.#steps };
  }

  /** Resolves when the run has ended. */
  get finished(): Promise<void> {
    return this.#finished;
  }

  /** Appends an event (numbered by its position) and hands it to every subscriber. */
  push(event: WireRunEvent): void {
    if (event.type === 'step-start' && event.path.length === 0) this.#steps++;
    const numbered: WireEvent = { ...event, seq: this.#seq++ };
    if (this.events.length < maxBufferedEvents || event.type !== 'chunk') this.events.push(numbered);
    for (const listener of this.#listeners) listener.event(numbered);
  }

  /** Records how the run ended and releases subscribers (their `end` reads it from `info`). */
  finish(outcome: RunOutcome): void {
    if (this.#info.status !== 'running') return;
    this.#info = {
      ...this.#info,
      status: outcome.status,
      endedAt: Date.now(),
      interrupts: outcome.interrupts,
      ...(outcome.checkpointId === undefined ? {} : { checkpointId: outcome.checkpointId }),
      ...(outcome.error === undefined ? {} : { error: outcome.error }),
    };
    this.#steps = Math.max(this.#steps, outcome.steps);
    for (const listener of this.#listeners) listener.end();
    this.#listeners.clear();
    this.#resolveFinished();
  }

  /**
   * Subscribes to events with `seq` greater than `after` (-1 for all): the backlog is delivered at
   * once, then live events; `end` follows the last one. Returns the unsubscribe function.
   */
  subscribe(after: number, listener: RunListener): () => void {
    for (const event of this.events) if (event.seq > after) listener.event(event);
    if (this.#info.status !== 'running') {
      listener.end();
      return () => undefined;
    }
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
