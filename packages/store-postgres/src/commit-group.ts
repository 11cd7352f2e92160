import { WeftError } from '@weft/compose';

/**
 * Commits one batch of items in one transaction and says, per item in order, whether it failed
 * (`undefined`: committed). Throwing fails every item of the batch with that error.
 */
export type CommitBatch<TItem> = (items: readonly TItem[]) => Promise<readonly (Error | undefined)[]>;

interface Waiting<TItem> {
  readonly item: TItem;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Leader/follower group commit: the first item submitted while no batch is in flight is committed at
 * once (a lone writer waits for nothing); items submitted while a batch is in flight wait and go
 * together in the next one, at most `maxBatch` per batch. Each item's promise settles after its own
 * batch committed (or failed), so an item is durable exactly when its promise resolves.
 *
 * @example
 * ```ts
 * const batches: string[][] = [];
 * const group = new CommitGroup<string>(async (rows) => {
 *   batches.push([...rows]); // one transaction storing every row would go here
 *   return rows.map(() => undefined); // every row committed
 * }, 64);
 * await Promise.all([group.submit('a'), group.submit('b'), group.submit('c')]);
 * // batches: [['a'], ['b', 'c']] — 'a' went at once, 'b' and 'c' came while it was in flight
 * ```
 */
export class CommitGroup<TItem> {
  readonly #commit: CommitBatch<TItem>;
  readonly #maxBatch: number;
  #waiting: Waiting<TItem>[] = [];
  #inFlight: Promise<void> | undefined;

  /** @throws {WeftError} code `INVALID_ARGUMENT` when `maxBatch` is not a positive integer. */
  constructor(commit: CommitBatch<TItem>, maxBatch: number) {
    if (!Number.isInteger(maxBatch) || maxBatch < 1)
      throw new WeftError(
        'INVALID_ARGUMENT',
        `groupCommit.maxBatch must be a positive integer, got ${String(maxBatch)}`,
      );
    this.#commit = commit;
    this.#maxBatch = maxBatch;
  }

  /** Queues `item`; resolves once the batch holding it committed, rejects with that item's error. */
  submit(item: TItem): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
      this.#inFlight ??= this.#drain();
    });
  }

  /** Resolves when nothing is queued or in flight (for a clean close). */
  async idle(): Promise<void> {
    while (this.#inFlight) await this.#inFlight;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#waiting.length > 0) {
        const batch = this.#waiting.splice(0, this.#maxBatch);
        await this.#commitOne(batch);
      }
    } finally {
      this.#inFlight = undefined;
    }
  }

  async #commitOne(batch: readonly Waiting<TItem>[]): Promise<void> {
    let outcomes: readonly (Error | undefined)[];
    try {
      outcomes = await this.#commit(batch.map((waiting) => waiting.item));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    batch.forEach((waiting, index) => {
      const failure = outcomes[index];
      if (failure === undefined) waiting.resolve();
      else waiting.reject(failure);
    });
  }
}
