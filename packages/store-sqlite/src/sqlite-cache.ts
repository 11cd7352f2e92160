import type { NodeCache } from '@weft/compose';
import type { Database, Statement } from 'better-sqlite3';
import { openDatabase, type SqliteStoreOptions } from './open-database.js';

/** Options of {@link SqliteCache}: where the data lives, and a clock. */
export type SqliteCacheOptions = SqliteStoreOptions & {
  /** Milliseconds since the epoch (default `Date.now`), for expiry. */
  readonly now?: () => number;
};

/**
 * A {@link NodeCache} in SQLite (better-sqlite3): node results that outlive the process, shared by the
 * processes that open the file. Its table (`weft_node_cache`) is created on first use; it can share a
 * file with `SqliteCheckpointer` and `SqliteStore`.
 *
 * @example
 * ```ts
 * const graph = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END);
 * import { SqliteCache } from '@weft/store-sqlite';
 *
 * const app = graph.compile({ cache: new SqliteCache({ filename: 'weft.db' }) });
 * ```
 */
export class SqliteCache implements NodeCache {
  readonly #db: Database;
  readonly #owned: boolean;
  readonly #now: () => number;
  readonly #get: Statement<[string, string]>;
  readonly #set: Statement<[string, string, string, number | null]>;
  readonly #clearOne: Statement<[string]>;
  readonly #clearAll: Statement<[]>;

  constructor(options: SqliteCacheOptions = {}) {
    const { db, owned } = openDatabase(options);
    this.#db = db;
    this.#owned = owned;
    this.#now = options.now ?? Date.now;
    db.exec(`CREATE TABLE IF NOT EXISTS weft_node_cache (
      ns TEXT NOT NULL, key TEXT NOT NULL, payload TEXT NOT NULL, expires_at INTEGER,
      PRIMARY KEY (ns, key))`);
    this.#get = db.prepare('SELECT payload, expires_at FROM weft_node_cache WHERE ns = ? AND key = ?');
    this.#set = db.prepare(
      `INSERT INTO weft_node_cache (ns, key, payload, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (ns, key) DO UPDATE SET payload = excluded.payload, expires_at = excluded.expires_at`,
    );
    this.#clearOne = db.prepare('DELETE FROM weft_node_cache WHERE ns = ?');
    this.#clearAll = db.prepare('DELETE FROM weft_node_cache');
  }

  async get(namespace: string, key: string): Promise<string | undefined> {
    const row = this.#get.get(namespace, key) as { payload: string; expires_at: number | null } | undefined;
    if (!row || (row.expires_at !== null && row.expires_at <= this.#now())) return undefined;
    return row.payload;
  }

  async set(namespace: string, key: string, payload: string, ttlMs: number | undefined): Promise<void> {
    this.#set.run(namespace, key, payload, ttlMs === undefined ? null : this.#now() + ttlMs);
  }

  async clear(namespaces?: readonly string[]): Promise<void> {
    if (namespaces === undefined) this.#clearAll.run();
    else
      this.#db.transaction(() => {
        for (const namespace of namespaces) this.#clearOne.run(namespace);
      })();
  }

  /** Closes the database if the cache opened it. */
  async close(): Promise<void> {
    if (this.#owned) this.#db.close();
  }
}
