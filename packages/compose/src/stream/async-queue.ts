/**
 * A single-consumer async queue with backpressure: `push` returns a promise while more than
 * `highWaterMark` items wait, so a fast producer slows to the consumer's pace. A waiting producer goes
 * on once the consumer has drained the queue to half of that (`lowWaterMark`), so both sides run in
 * bursts instead of trading one item at a time. When the consumer stops iterating early (`break`),
 * `onCancel` runs so the producer can abort its work; `return()` waits for the promise it returns, so the
 * consumer's loop ends once the producer has wound down.
 */
export class AsyncQueue<T> implements AsyncIterableIterator<T> {
  private readonly items: T[] = [];
  private head = 0;
  private waitingConsumer: ((result: IteratorResult<T>) => void) | undefined;
  private waitingConsumerReject: ((error: unknown) => void) | undefined;
  private spaceWaiters: Array<() => void> = [];
  private done = false;
  private failure: { error: unknown } | undefined;
  private readonly lowWaterMark: number;

  constructor(
    private readonly highWaterMark = 64,
    private readonly onCancel?: () => Promise<void> | void,
  ) {
    this.lowWaterMark = Math.floor(highWaterMark / 2);
  }

  /** Adds an item; resolves once there is room (immediately when the queue is short). */
  push(item: T): Promise<void> | undefined {
    if (this.done) return undefined;
    const consumer = this.waitingConsumer;
    if (consumer) {
      this.waitingConsumer = undefined;
      this.waitingConsumerReject = undefined;
      consumer({ value: item, done: false });
      return undefined;
    }
    this.items.push(item);
    if (this.items.length - this.head <= this.highWaterMark) return undefined;
    return new Promise<void>((resolve) => this.spaceWaiters.push(resolve));
  }

  /** Resolves at once when the queue is at or below its high-water mark, else once it drained to half. */
  waitForSpace(): Promise<void> | undefined {
    if (this.done || this.items.length - this.head <= this.highWaterMark) return undefined;
    return new Promise<void>((resolve) => this.spaceWaiters.push(resolve));
  }

  /** Ends the stream after the queued items. */
  close(): void {
    if (this.done) return;
    this.done = true;
    this.settleConsumer();
  }

  /** Ends the stream with an error, thrown to the consumer after the queued items. */
  fail(error: unknown): void {
    if (this.done) return;
    this.failure = { error };
    this.done = true;
    this.settleConsumer();
  }

  next(): Promise<IteratorResult<T>> {
    if (this.head < this.items.length) {
      const value = this.items[this.head] as T;
      this.items[this.head] = undefined as T;
      this.head++;
      if (this.head > 1024 && this.head * 2 > this.items.length) {
        this.items.splice(0, this.head);
        this.head = 0;
      }
      this.releaseSpace();
      return Promise.resolve({ value, done: false });
    }
    if (this.failure) {
      const { error } = this.failure;
      this.failure = undefined;
      return Promise.reject(error);
    }
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waitingConsumer = resolve;
      this.waitingConsumerReject = reject;
    });
  }

  return(): Promise<IteratorResult<T>> {
    const wasOpen = !this.done;
    this.done = true;
    this.items.length = 0;
    this.head = 0;
    this.releaseSpace(true);
    const ended = wasOpen ? this.onCancel?.() : undefined;
    const result: IteratorResult<T> = { value: undefined, done: true };
    return ended ? ended.then(() => result) : Promise.resolve(result);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private settleConsumer(): void {
    this.releaseSpace(true);
    const consumer = this.waitingConsumer;
    const reject = this.waitingConsumerReject;
    if (!consumer || this.head < this.items.length) return;
    this.waitingConsumer = undefined;
    this.waitingConsumerReject = undefined;
    if (this.failure && reject) {
      const { error } = this.failure;
      this.failure = undefined;
      reject(error);
    } else consumer({ value: undefined, done: true });
  }

  private releaseSpace(all = false): void {
    if (this.spaceWaiters.length === 0) return;
    if (!all && this.items.length - this.head > this.lowWaterMark) return;
    const waiters = this.spaceWaiters;
    this.spaceWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
