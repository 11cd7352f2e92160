/** No item given (`drain`'s default: an item itself may be `undefined`). */
const NOTHING: unique symbol = Symbol('nothing');

/**
 * A single-consumer async queue with backpressure: `push` returns a promise while more than
 * `highWaterMark` items wait, so a fast producer slows to the consumer's pace. A waiting producer goes
 * on once the consumer has drained the queue to half of that (`lowWaterMark`), so both sides run in
 * bursts instead of trading one item at a time. When the consumer stops iterating early (`break`),
 * `onCancel` runs so the producer can abort its work; `return()` waits for the promise it returns, so the
 * consumer's loop ends once the producer has wound down.
 */
export class AsyncQueue<T> implements AsyncIterableIterator<T> {
  /**
   * Queued items in a ring (a power-of-two capacity, doubled when full): no allocation per item. It starts
   * with room for twice the high-water mark (at most 256 slots), where a producer that waits once a step
   * stops, so a run's stream does not grow it three times on the way.
   */
  private items: Array<T | undefined>;
  private head = 0;
  private size = 0;
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
    let capacity = 16;
    while (capacity < 256 && capacity < highWaterMark * 2) capacity *= 2;
    this.items = new Array(capacity);
  }

  /** Adds an item; resolves once there is room (immediately when the queue is short). */
  push(item: T): Promise<void> | undefined {
    this.offer(item);
    return this.waitForSpace();
  }

  /**
   * Adds an item without waiting for room, for a producer that waits elsewhere (`waitForSpace`, once per
   * step for a run's events): no promise is made for each item pushed past the high-water mark.
   */
  offer(item: T): void {
    if (this.done) return;
    const consumer = this.waitingConsumer;
    if (consumer) {
      this.waitingConsumer = undefined;
      this.waitingConsumerReject = undefined;
      consumer({ value: item, done: false });
      return;
    }
    if (this.size === this.items.length) this.grow();
    this.items[(this.head + this.size) & (this.items.length - 1)] = item;
    this.size++;
  }

  /** Resolves at once when the queue is at or below its high-water mark, else once it drained to half. */
  waitForSpace(): Promise<void> | undefined {
    if (this.done || this.size <= this.highWaterMark) return undefined;
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
    if (this.size > 0) {
      const { items, head } = this;
      const value = items[head] as T;
      items[head] = undefined;
      this.head = (head + 1) & (items.length - 1);
      this.size--;
      if (this.spaceWaiters.length > 0) this.releaseSpace();
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
    this.items.fill(undefined);
    this.head = 0;
    this.size = 0;
    this.releaseSpace(true);
    const ended = wasOpen ? this.onCancel?.() : undefined;
    const result: IteratorResult<T> = { value: undefined, done: true };
    return ended ? ended.then(() => result) : Promise.resolve(result);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /**
   * The same queue read in batches: each `next()` yields every item queued so far as one array (never
   * empty), so a consumer takes one `for await` turn per burst instead of one per item. The arrays,
   * joined, are exactly the items `next()` would have yielded one by one. `return()` is the queue's own.
   */
  batches(): AsyncIterableIterator<T[]> {
    return new QueueBatches(this);
  }

  /**
   * Every queued item as one array (what `batches().next()` returns); when none is queued, waits for the
   * next push and the burst after it.
   */
  nextBatch(): Promise<IteratorResult<T[]>> {
    if (this.size > 0) return Promise.resolve({ value: this.drain(), done: false });
    if (this.failure || this.done) return this.next() as Promise<IteratorResult<never>>;
    // The first item arrives alone; by the time the consumer resumes, the producer may have queued more
    // in the same synchronous burst, and they join it.
    return this.next().then(this.joinBurst);
  }

  /** The first item of a burst and what the producer queued after it (one function per queue). */
  private readonly joinBurst = (first: IteratorResult<T>): IteratorResult<T[]> =>
    first.done ? first : { value: this.drain(first.value), done: false };

  /**
   * Takes every queued item, in order, and lets a waiting producer go on; `before` (an item already taken
   * off the queue) comes first when given.
   */
  private drain(before: T | typeof NOTHING = NOTHING): T[] {
    const { items, head, size } = this;
    const offset = before === NOTHING ? 0 : 1;
    const taken = new Array<T>(offset + size);
    if (offset === 1) taken[0] = before as T;
    for (let i = 0; i < size; i++) {
      const at = (head + i) & (items.length - 1);
      taken[offset + i] = items[at] as T;
      items[at] = undefined;
    }
    this.head = 0;
    this.size = 0;
    this.releaseSpace(true);
    return taken;
  }

  private settleConsumer(): void {
    this.releaseSpace(true);
    const consumer = this.waitingConsumer;
    const reject = this.waitingConsumerReject;
    if (!consumer || this.size > 0) return;
    this.waitingConsumer = undefined;
    this.waitingConsumerReject = undefined;
    if (this.failure && reject) {
      const { error } = this.failure;
      this.failure = undefined;
      reject(error);
    } else consumer({ value: undefined, done: true });
  }

  /** Doubles the ring, its items moved to the front in order. */
  private grow(): void {
    const { items, head, size } = this;
    const grown = new Array<T | undefined>(items.length * 2);
    for (let i = 0; i < size; i++) grown[i] = items[(head + i) & (items.length - 1)];
    this.items = grown;
    this.head = 0;
  }

  private releaseSpace(all = false): void {
    if (this.spaceWaiters.length === 0) return;
    if (!all && this.size > this.lowWaterMark) return;
    const waiters = this.spaceWaiters;
    this.spaceWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

/**
 * A queue read in batches (`AsyncQueue.batches()`): a class rather than a literal of arrow functions, so
 * a stream read in batches makes no function objects of its own. `return()` is the queue's.
 */
class QueueBatches<T> implements AsyncIterableIterator<T[]> {
  constructor(private readonly queue: AsyncQueue<T>) {}

  next(): Promise<IteratorResult<T[]>> {
    return this.queue.nextBatch();
  }

  async return(): Promise<IteratorResult<T[]>> {
    await this.queue.return();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
