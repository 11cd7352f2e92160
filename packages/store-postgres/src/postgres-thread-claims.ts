import { type ThreadClaim, threadClaimedError } from '@weft/compose/store';
import type { Pool, PoolClient } from 'pg';

/**
 * Takes and gives back advisory locks in request order, as many as are queued in one statement (one
 * round trip, planned once per connection). A lock is re-entrant for its session, so a thread's unlock
 * and its next lock in one batch leave it locked whichever runs first.
 */
const LOCK_BATCH = {
  name: 'weft_thread_claims_batch',
  text: `SELECT CASE WHEN t.take THEN pg_try_advisory_lock(hashtextextended(t.key, 0))
                 ELSE pg_advisory_unlock(hashtextextended(t.key, 0)) END AS ok
         FROM unnest($1::bool[], $2::text[]) WITH ORDINALITY AS t(take, key, i) ORDER BY t.i`,
} as const;

/** A lock to take (`take`) or give back, waiting for the lock connection. */
interface LockRequest {
  readonly take: boolean;
  readonly threadId: string;
  readonly done: (ok: boolean) => void;
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
 * If the lock connection itself breaks, its locks are gone: the claims of this process are then no longer
 * exclusive, and what still fences a second writer is the unique `seq` of every stored checkpoint.
 */
export class PostgresThreadClaims {
  readonly #pool: Pool;
  readonly #scope: string;
  readonly #held = new Set<string>();
  #client: PoolClient | undefined;
  #onError: ((error: Error) => void) | undefined;
  #queue: LockRequest[] = [];
  #draining: Promise<void> | undefined;

  /** `scope` keeps the locks of different table sets apart (their qualified checkpoints table). */
  constructor(pool: Pool, scope: string) {
    this.#pool = pool;
    this.#scope = scope;
  }

  /** @throws {CheckpointConflictError} when a live run (of this or another process) holds the thread. */
  async claim(threadId: string): Promise<ThreadClaim> {
    if (this.#held.has(threadId)) throw threadClaimedError(threadId);
    // Reserved before the lock query, so a second claim from this process fails at once; dropped by the
    // batch that finds the lock taken, before it decides whether the connection goes back to the pool.
    this.#held.add(threadId);
    if (!(await this.#request(true, threadId))) throw threadClaimedError(threadId, 'another process');
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        this.#held.delete(threadId);
        await this.#request(false, threadId);
      },
    };
  }

  /** Frees every lock and gives the connection back (used by the checkpointer's `close`). */
  async close(): Promise<void> {
    while (this.#draining) await this.#draining;
    this.#held.clear();
    const client = this.#client;
    if (client === undefined) return;
    await client.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
    this.#giveBack(client);
  }

  #request(take: boolean, threadId: string): Promise<boolean> {
    return new Promise<boolean>((done, fail) => {
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
    try {
      const client = this.#client ?? (await this.#connect());
      const { rows } = await client.query<{ ok: boolean }>({
        ...LOCK_BATCH,
        values: [batch.map((request) => request.take), batch.map((request) => this.#key(request.threadId))],
      });
      oks = batch.map((_, index) => rows[index]?.ok === true);
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
      request.done(oks[index] === true);
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
      if (this.#client === client) this.#giveBack(client, error);
    };
    client.on('error', onError);
    this.#client = client;
    this.#onError = onError;
    return client;
  }
}
