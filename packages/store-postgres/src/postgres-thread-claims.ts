import { claimLostError, type ThreadClaim, threadClaimedError } from '@weft/compose/store';
import type { Pool, PoolClient } from 'pg';

/**
 * Takes and gives back advisory locks in request order, as many as are queued in one statement (one
 * round trip, planned once per connection), and gives every lock taken the thread's next epoch (ADR 030)
 * in the same statement. A lock is re-entrant for its session, so a thread's unlock and its next lock in
 * one batch leave it locked whichever runs first.
 */
function lockBatch(
  claimsTable: string,
  statementPrefix: string,
): { readonly name: string; readonly text: string } {
  return {
    name: `${statementPrefix}_claims_batch`,
    text: `WITH req AS MATERIALIZED (
             SELECT t.i, t.take, t.thread,
                    CASE WHEN t.take THEN pg_try_advisory_lock(hashtextextended(t.key, 0))
                         ELSE pg_advisory_unlock(hashtextextended(t.key, 0)) END AS ok
             FROM unnest($1::bool[], $2::text[], $3::text[]) WITH ORDINALITY AS t(take, key, thread, i) ORDER BY t.i
           ), bumped AS (
             INSERT INTO ${claimsTable} AS c (thread_id, epoch)
             SELECT req.thread, 1 FROM req WHERE req.take AND req.ok
             ON CONFLICT (thread_id) DO UPDATE SET epoch = c.epoch + 1
             RETURNING c.thread_id, c.epoch
           )
           SELECT req.ok, bumped.epoch FROM req
           LEFT JOIN bumped ON req.take AND req.ok AND bumped.thread_id = req.thread
           ORDER BY req.i`,
  };
}

/** A claim this process holds: its epoch and the signal that reports its loss. */
interface HeldClaim {
  readonly epoch: number;
  readonly controller: AbortController;
}

/** A lock to take (`take`) or give back, waiting for the lock connection. */
interface LockRequest {
  readonly take: boolean;
  readonly threadId: string;
  /** `ok`: the lock was taken (given back); `epoch`: the epoch a taken lock got. */
  readonly done: (result: { readonly ok: boolean; readonly epoch: number | undefined }) => void;
  readonly fail: (error: unknown) => void;
}

/**
 * Thread claims as PostgreSQL session advisory locks (`pg_try_advisory_lock` on a 64-bit hash of the
 * table and thread), held on one connection of the pool while any claim is held and given back when the
 * last one is released. A lock dies with its connection, so a process killed mid-run frees its threads
 * at once and the next run claims them; a live run's lock refuses every other process. Within one
 * process the held threads are also tracked here, since advisory locks are re-entrant for a session.
 * Claims and releases that queue while the connection is busy go together in the next statement.
 *
 * Every claim taken bumps the thread's epoch in the claims table (under the lock): the fencing token of
 * its writes (ADR 030), which the checkpointer's writes check with `FOR SHARE`. If the lock connection
 * breaks, its locks are gone: every claim held on it is reported lost at once (`lost` aborts, so its run
 * starts no further step), and a write the stale holder still sends is refused by its old epoch.
 */
export class PostgresThreadClaims {
  readonly #pool: Pool;
  readonly #scope: string;
  readonly #held = new Set<string>();
  readonly #lockBatch: { readonly name: string; readonly text: string };
  readonly #epochs = new Map<string, HeldClaim>();
  #client: PoolClient | undefined;
  #onError: ((error: Error) => void) | undefined;
  #queue: LockRequest[] = [];
  #draining: Promise<void> | undefined;

  /**
   * `scope` keeps the locks of different table sets apart (their qualified checkpoints table);
   * `claimsTable` is the qualified table of epochs; `statementPrefix` names its prepared statement.
   */
  constructor(pool: Pool, scope: string, claimsTable: string, statementPrefix = 'weft') {
    this.#pool = pool;
    this.#scope = scope;
    this.#lockBatch = lockBatch(claimsTable, statementPrefix);
  }

  /** The epoch of this process's claim on the thread, when it holds one (its writes are fenced by it). */
  epochOf(threadId: string): number | undefined {
    return this.#epochs.get(threadId)?.epoch;
  }

  /** Reports the claim on `threadId` lost (a write was refused for its epoch): its run stops. */
  lose(threadId: string, error: Error): void {
    const held = this.#epochs.get(threadId);
    if (held === undefined) return;
    this.#epochs.delete(threadId);
    held.controller.abort(error);
  }

  /** @throws {CheckpointConflictError} when a live run (of this or another process) holds the thread. */
  async claim(threadId: string): Promise<ThreadClaim> {
    if (this.#held.has(threadId)) throw threadClaimedError(threadId);
    // Reserved before the lock query, so a second claim from this process fails at once; dropped by the
    // batch that finds the lock taken, before it decides whether the connection goes back to the pool.
    this.#held.add(threadId);
    const taken = await this.#request(true, threadId);
    if (!taken.ok) throw threadClaimedError(threadId, 'another process');
    const epoch = taken.epoch ?? 0;
    const held: HeldClaim = { epoch, controller: new AbortController() };
    this.#epochs.set(threadId, held);
    let released = false;
    return {
      epoch,
      lost: held.controller.signal,
      release: async () => {
        if (released) return;
        released = true;
        if (this.#epochs.get(threadId) === held) this.#epochs.delete(threadId);
        // A claim lost with its connection has no lock left to give back.
        if (!this.#held.delete(threadId)) return;
        await this.#request(false, threadId);
      },
    };
  }

  /** Frees every lock and gives the connection back (used by the checkpointer's `close`). */
  async close(): Promise<void> {
    while (this.#draining) await this.#draining;
    this.#held.clear();
    this.#epochs.clear();
    const client = this.#client;
    if (client === undefined) return;
    await client.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
    this.#giveBack(client);
  }

  #request(
    take: boolean,
    threadId: string,
  ): Promise<{ readonly ok: boolean; readonly epoch: number | undefined }> {
    return new Promise((done, fail) => {
      this.#queue.push({ take, threadId, done, fail });
      this.#draining ??= this.#drain();
    });
  }

  /** Sends what is queued, one statement at a time, until nothing is. */
  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue;
        this.#queue = [];
        await this.#send(batch);
      }
    } finally {
      this.#draining = undefined;
    }
  }

  async #send(batch: readonly LockRequest[]): Promise<void> {
    let oks: boolean[];
    let epochs: (number | undefined)[];
    try {
      const client = this.#client ?? (await this.#connect());
      const { rows } = await client.query<{ ok: boolean; epoch: string | null }>({
        ...this.#lockBatch,
        values: [
          batch.map((request) => request.take),
          batch.map((request) => this.#key(request.threadId)),
          batch.map((request) => request.threadId),
        ],
      });
      oks = batch.map((_, index) => rows[index]?.ok === true);
      epochs = batch.map((_, index) => {
        const epoch = rows[index]?.epoch;
        return epoch === null || epoch === undefined ? undefined : Number(epoch);
      });
    } catch (error) {
      for (const request of batch) if (request.take) this.#held.delete(request.threadId);
      this.#giveBackIfFree();
      for (const request of batch) request.fail(error);
      return;
    }
    batch.forEach((request, index) => {
      if (request.take && !oks[index]) this.#held.delete(request.threadId);
    });
    this.#giveBackIfFree();
    batch.forEach((request, index) => {
      request.done({ ok: oks[index] === true, epoch: epochs[index] });
    });
  }

  /** The text whose `hashtextextended(…, 0)` is the thread's advisory lock key. */
  lockKey(threadId: string): string {
    return this.#key(threadId);
  }

  #key(threadId: string): string {
    return `weft-claim:${this.#scope}:${threadId}`;
  }

  /** A session keeps advisory locks, so the connection goes back to the pool only when none is held. */
  #giveBackIfFree(): void {
    if (this.#held.size === 0 && this.#queue.length === 0 && this.#client !== undefined)
      this.#giveBack(this.#client);
  }

  #giveBack(client: PoolClient, error?: Error): void {
    if (this.#onError) client.off('error', this.#onError);
    this.#client = undefined;
    this.#onError = undefined;
    client.release(error);
  }

  async #connect(): Promise<PoolClient> {
    const client = await this.#pool.connect();
    // A checked-out client that loses its connection emits 'error'; without a listener it would crash
    // the process. Its locks are gone with it: drop it so the next claim takes a fresh connection. The
    // listener goes when the client goes back, so a pooled client does not collect one per checkout.
    const onError = (error: Error): void => {
      if (this.#client !== client) return;
      this.#giveBack(client, error);
      // Every lock of the connection is gone: tell each holder at once, so its run stops.
      this.#held.clear();
      const lost = [...this.#epochs];
      this.#epochs.clear();
      for (const [threadId, held] of lost)
        held.controller.abort(
          claimLostError(threadId, `epoch ${held.epoch}, its lock connection to PostgreSQL closed`, error),
        );
    };
    client.on('error', onError);
    this.#client = client;
    this.#onError = onError;
    return client;
  }
}
