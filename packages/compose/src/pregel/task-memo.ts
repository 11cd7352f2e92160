/**
 * What `ctx.once` remembers for one task attempt: results restored from the task's pause, and results of
 * this attempt. It outlives the attempt only through a pause (stored with the task's paused write); a
 * finished task's output is all that counts then.
 */
export class TaskMemo {
  readonly #done: Map<string, unknown>;
  readonly #running = new Map<string, Promise<unknown>>();

  constructor(restored: ReadonlyMap<string, unknown> | undefined) {
    this.#done = new Map(restored);
  }

  /**
   * The result of `fn` under `key`: the remembered one if there is one, else `fn`'s (remembered when it
   * resolves; a rejection is not). Concurrent calls with one key share one call of `fn`.
   */
  once<T>(key: string, fn: () => T | Promise<T>): Promise<T> {
    if (this.#done.has(key)) return Promise.resolve(this.#done.get(key) as T);
    const running = this.#running.get(key);
    if (running) return running as Promise<T>;
    const call = (async () => fn())().then(
      (value) => {
        this.#done.set(key, value);
        this.#running.delete(key);
        return value;
      },
      (error: unknown) => {
        this.#running.delete(key);
        throw error;
      },
    );
    this.#running.set(key, call);
    return call;
  }

  /** Everything remembered, to store with the task's pause. */
  entries(): Array<readonly [string, unknown]> {
    return [...this.#done];
  }
}
