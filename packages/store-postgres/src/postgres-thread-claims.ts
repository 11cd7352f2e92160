import { type ThreadClaim, threadClaimedError } from '@weft/compose/store';
import type { Pool, PoolClient } from 'pg';

/**
 * Thread claims as PostgreSQL session advisory locks (`pg_try_advisory_lock` on a 64-bit hash of the
 * table and thread), held on one connection of the pool while any claim is held and given back when the
 * last one is released. A lock dies with its connection, so a process killed mid-run frees its threads
 * at once and the next run claims them; a live run's lock refuses every other process. Within one
 * process the held threads are also tracked here, since advisory locks are re-entrant for a session.
 *
 * If the lock connection itself breaks, its locks are gone: the claims of this process are then no longer
 * exclusive, and what still fences a second writer is the unique `seq` of every stored checkpoint.
 */
export class PostgresThreadClaims {
  readonly #pool: Pool;
  readonly #scope: string;
  readonly #held = new Set<string>();
  #client: PoolClient | undefined;
  #chain: Promise<unknown> = Promise.resolve();

  /** `scope` keeps the locks of different table sets apart (their qualified checkpoints table). */
  constructor(pool: Pool, scope: string) {
    this.#pool = pool;
    this.#scope = scope;
  }

  /** @throws {CheckpointConflictError} when a live run (of this or another process) holds the thread. */
  async claim(threadId: string): Promise<ThreadClaim> {
    if (this.#held.has(threadId)) throw threadClaimedError(threadId);
    // Reserved before the lock query, so a second claim from this process fails at once; dropped inside
    // the serialized call when the lock is not had, so the connection goes back to the pool if idle.
    this.#held.add(threadId);
    const locked = await this.#serial(async (client) => {
      let had = false;
      try {
        const { rows } = await client.query<{ locked: boolean }>(
          'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked',
          [this.#key(threadId)],
        );
        had = rows[0]?.locked === true;
        return had;
      } finally {
        if (!had) this.#held.delete(threadId);
      }
    }).catch((error: unknown) => {
      this.#held.delete(threadId);
      throw error;
    });
    if (!locked) throw threadClaimedError(threadId, 'another process');
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        this.#held.delete(threadId);
        await this.#serial((client) =>
          client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [this.#key(threadId)]),
        );
      },
    };
  }

  /** Frees every lock and gives the connection back (used by the checkpointer's `close`). */
  async close(): Promise<void> {
    if (this.#client === undefined && this.#held.size === 0) return;
    this.#held.clear();
    await this.#serial((client) => client.query('SELECT pg_advisory_unlock_all()')).catch(() => undefined);
  }

  #key(threadId: string): string {
    return `weft-claim:${this.#scope}:${threadId}`;
  }

  /**
   * Runs `work` on the lock connection (taken from the pool on demand), one call at a time, and gives
   * the connection back once no claim is held (a session keeps advisory locks, so it must not go back
   * to the pool while holding one).
   */
  #serial<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const next = this.#chain.then(async () => {
      const client = this.#client ?? (await this.#connect());
      try {
        return await work(client);
      } finally {
        if (this.#held.size === 0 && this.#client === client) {
          this.#client = undefined;
          client.release();
        }
      }
    });
    this.#chain = next.catch(() => undefined);
    return next;
  }

  async #connect(): Promise<PoolClient> {
    const client = await this.#pool.connect();
    // A checked-out client that loses its connection emits 'error'; without a listener it would crash
    // the process. Its locks are gone with it: drop it so the next claim takes a fresh connection.
    client.on('error', (error: Error) => {
      if (this.#client !== client) return;
      this.#client = undefined;
      client.release(error);
    });
    this.#client = client;
    return client;
  }
}
