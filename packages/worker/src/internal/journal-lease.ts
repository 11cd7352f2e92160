import type { PostgresRunJournal } from '../postgres-run-journal.js';

/** Options of {@link JournalLease.acquire}. */
export interface JournalLeaseOptions {
  readonly journal: PostgresRunJournal;
  readonly queue: string;
  readonly threadId: string;
  /** Unique to this holder (worker id + run id + random). */
  readonly token: string;
  /** Time to live; renewed every `ttlMs / 3` while held. */
  readonly ttlMs: number;
  /** Called once if the lease is lost (taken over after expiry, or not renewable for `ttlMs`). */
  readonly onLost: () => void;
}

/**
 * A thread's lease kept in PostgreSQL (the journal's `weft_thread_leases`), used instead of the Redis
 * lease when the worker has a journal: a Redis restart then neither frees a thread that is still
 * running nor makes its holder abort. Expiry is judged by PostgreSQL's clock alone.
 */
export class JournalLease {
  readonly #options: JournalLeaseOptions;
  #timer: NodeJS.Timeout | undefined;
  #renewedAt = Date.now();
  #lost = false;

  private constructor(options: JournalLeaseOptions) {
    this.#options = options;
  }

  /** Takes the lease, or returns `undefined` when another holder has it. */
  static async acquire(options: JournalLeaseOptions): Promise<JournalLease | undefined> {
    const { journal, queue, threadId, token, ttlMs } = options;
    if (!(await journal.acquireLease(queue, threadId, { token, ttlMs }))) return undefined;
    const lease = new JournalLease(options);
    lease.#timer = setInterval(() => void lease.#renew(), Math.max(1, Math.floor(ttlMs / 3)));
    lease.#timer.unref();
    return lease;
  }

  /**
   * Resolves while the lease is still this holder's (extending it, one round trip); rejects once another
   * worker took it — the fence of the run's effects.
   */
  async check(): Promise<void> {
    const { journal, queue, threadId, token, ttlMs } = this.#options;
    if (!this.#lost && (await journal.renewLease(queue, threadId, { token, ttlMs }))) {
      this.#renewedAt = Date.now();
      return;
    }
    this.#lose();
    throw new Error(`the lease of thread "${threadId}" is no longer this worker's`);
  }

  /** Stops renewing and deletes the lease if it is still ours. Never throws. */
  async release(): Promise<void> {
    clearInterval(this.#timer);
    const { journal, queue, threadId, token } = this.#options;
    await journal.releaseLease(queue, threadId, token).catch(() => undefined);
  }

  async #renew(): Promise<void> {
    const { journal, queue, threadId, token, ttlMs } = this.#options;
    try {
      if (await journal.renewLease(queue, threadId, { token, ttlMs })) this.#renewedAt = Date.now();
      else this.#lose();
    } catch {
      if (Date.now() - this.#renewedAt >= ttlMs) this.#lose();
    }
  }

  #lose(): void {
    if (this.#lost) return;
    this.#lost = true;
    clearInterval(this.#timer);
    this.#options.onLost();
  }
}
