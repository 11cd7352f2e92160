/**
 * One timer for the event sinks of a worker: a sink that buffers its first event asks for a flush, and
 * when the timer fires every sink that asked writes its buffer, all in one tick — so their appends leave
 * in one auto-pipelined write instead of one timer, pipeline and socket write per sink. An event is
 * still written at most `ms` after it happened (sooner when another sink's request armed the timer).
 *
 * @example
 * ```ts
 * const schedule = new FlushSchedule(5);
 * schedule.request(() => console.log('writing a buffer')); // within 5 ms, once
 * ```
 */
export class FlushSchedule {
  readonly #ms: number;
  #waiting = new Set<() => void>();
  #timer: NodeJS.Timeout | undefined;

  constructor(ms: number) {
    this.#ms = ms;
  }

  /** Calls `write` within the schedule's delay (once, however often it is requested meanwhile). */
  request(write: () => void): void {
    this.#waiting.add(write);
    this.#timer ??= setTimeout(() => this.#fire(), this.#ms);
  }

  /** Forgets a request (the sink wrote its buffer by other means). */
  cancel(write: () => void): void {
    this.#waiting.delete(write);
  }

  #fire(): void {
    this.#timer = undefined;
    const waiting = this.#waiting;
    this.#waiting = new Set();
    for (const write of waiting) write();
  }
}
