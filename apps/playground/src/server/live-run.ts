import type {
  ErrorInfo,
  InterruptInfo,
  RunInfo,
  RunStatus,
  WireEvent,
  WireRunEvent,
} from '../shared/wire.ts';

/**
 * Events a reader may have left unread before the run waits for it: the run's backpressure. A browser
 * that reads slowly slows the run's event delivery (and so the run) instead of losing events.
 */
export const maxReaderLag = 256;

/**
 * One reader of a run's events (an SSE response): it takes them in `seq` order, the backlog first, and
 * the run waits while it is more than {@link maxReaderLag} events behind.
 */
export interface RunReader {
  /** The next event, waiting for it if need be; `undefined` once the run ended and all were read. */
  next(): Promise<WireEvent | undefined>;
  /** Stops reading (the client went away): the run no longer waits for this reader. */
  close(): void;
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
 * One run in the server: its info, every event of it (so a reader that comes late gets the backlog
 * first; nothing is dropped), its readers and its abort controller. `push` returns a promise while a
 * reader lags more than {@link maxReaderLag} events behind: whoever feeds the run's events waits on it,
 * which is what carries a slow browser's backpressure back to the engine.
 *
 * @example
 * ```ts
 * const reader = run.read(-1);
 * for (let e = await reader.next(); e; e = await reader.next()) console.log(e.type);
 * ```
 */
export class LiveRun {
  readonly controller = new AbortController();
  readonly events: WireEvent[] = [];
  #info: RunInfo;
  #steps = 0;
  #seq = 0;
  /** Each reader's position (the index of the next event it takes) and how to wake it. */
  readonly #readers = new Map<RunReader, { position: number; wake: (() => void) | undefined }>();
  /** Resolved once no reader lags too far behind (while a `push` waits). */
  #space: { promise: Promise<void>; resolve: () => void } | undefined;
  readonly #finished: Promise<void>;
  #resolveFinished: () => void = () => undefined;

  constructor(info: Omit<RunInfo, 'status' | 'steps' | 'interrupts' | 'startedAt'>) {
    this.#info = { ...info, status: 'running', steps: 0, interrupts: [], startedAt: Date.now() };
    this.#finished = new Promise((resolve) => {
      this.#resolveFinished = resolve;
    });
    // A stopped run no longer waits for its readers, so a stalled client cannot hold up a stop.
    this.controller.signal.addEventListener('abort', () => this.#moved(), { once: true });
  }

  /** The run's current info. */
  get info(): RunInfo {
    return { ...this.#info, steps: this.#steps };
  }

  /** Resolves when the run has ended. */
  get finished(): Promise<void> {
    return this.#finished;
  }

  /**
   * Appends an event (numbered by its position) and wakes the readers. Returns a promise while some
   * reader is more than {@link maxReaderLag} events behind, resolved once none is (or it went away).
   */
  push(event: WireRunEvent): Promise<void> | undefined {
    if (event.type === 'step-start' && event.path.length === 0) this.#steps++;
    this.events.push({ ...event, seq: this.#seq++ });
    for (const reader of this.#readers.values()) reader.wake?.();
    if (!this.#lagging()) return undefined;
    if (!this.#space) {
      let resolve: () => void = () => undefined;
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      this.#space = { promise, resolve };
    }
    return this.#space.promise;
  }

  /** Records how the run ended and wakes the readers (they end after the last event). */
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
    for (const reader of this.#readers.values()) reader.wake?.();
    this.#resolveFinished();
  }

  /** A reader of the events with `seq` greater than `after` (-1 for all): the backlog, then live ones. */
  read(after: number): RunReader {
    const state = {
      position: Math.max(0, Math.min(after + 1, this.events.length)),
      wake: undefined as (() => void) | undefined,
    };
    const reader: RunReader = {
      next: async () => {
        for (;;) {
          if (!this.#readers.has(reader)) return undefined;
          const event = this.events[state.position];
          if (event) {
            state.position++;
            this.#moved();
            return event;
          }
          if (this.#info.status !== 'running') return undefined;
          await new Promise<void>((resolve) => {
            state.wake = resolve;
          });
          state.wake = undefined;
        }
      },
      close: () => {
        if (!this.#readers.delete(reader)) return;
        state.wake?.();
        this.#moved();
      },
    };
    this.#readers.set(reader, state);
    return reader;
  }

  #lagging(): boolean {
    if (this.controller.signal.aborted) return false;
    for (const { position } of this.#readers.values())
      if (this.events.length - position > maxReaderLag) return true;
    return false;
  }

  /** A reader advanced or left: a waiting `push` goes on once no reader lags too far. */
  #moved(): void {
    if (!this.#space || this.#lagging()) return;
    this.#space.resolve();
    this.#space = undefined;
  }
}
