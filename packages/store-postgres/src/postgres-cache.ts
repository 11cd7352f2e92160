import type { NodeCache } from '@weft/compose';
import type { Pool } from 'pg';
import { type PostgresConnectionOptions, postgresConnection } from './postgres-connection.js';

/** Options of {@link PostgresCache}: a pool (yours) or a connection string (a pool it owns), and where. */
export type PostgresCacheOptions = PostgresConnectionOptions & {
  /** Milliseconds since the epoch (default `Date.now`), for expiry. */
  readonly now?: () => number;
};

/**
 * A {@link NodeCache} in PostgreSQL on `pg`: node results shared by every process of a deployment.
 * Call {@link setup} once before use (it creates the schema and the table if missing).
 *
 * @example
 * ```ts
 * const graph = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END);
 * import { PostgresCache } from '@weft/store-postgres';
 *
 * const cache = new PostgresCache({ connectionString: process.env.DATABASE_URL! });
 * await cache.setup();
 * const app = graph.compile({ cache });
 * ```
 */
export class PostgresCache implements NodeCache {
  readonly #pool: Pool;
  readonly #ownsPool: boolean;
  readonly #table: string;
  readonly #schema: string;
  readonly #now: () => number;

  /** @throws {WeftError} code `INVALID_ARGUMENT` when the schema or table prefix is not a plain identifier. */
  constructor(options: PostgresCacheOptions) {
    const { pool, ownsPool, tables } = postgresConnection(options);
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    this.#schema = `"${tables.schema}"`;
    this.#table = `"${tables.schema}"."${tables.prefix}node_cache"`;
    this.#now = options.now ?? Date.now;
  }

  /** Creates the schema and the cache table if missing; idempotent. */
  async setup(): Promise<void> {
    await this.#pool.query(`CREATE SCHEMA IF NOT EXISTS ${this.#schema}`);
    await this.#pool.query(`CREATE TABLE IF NOT EXISTS ${this.#table} (
      ns TEXT NOT NULL, key TEXT NOT NULL, payload TEXT NOT NULL, expires_at BIGINT,
      PRIMARY KEY (ns, key))`);
  }

  async get(namespace: string, key: string): Promise<string | undefined> {
    const { rows } = await this.#pool.query<{ payload: string }>(
      `SELECT payload FROM ${this.#table} WHERE ns = $1 AND key = $2 AND (expires_at IS NULL OR expires_at > $3)`,
      [namespace, key, this.#now()],
    );
    return rows[0]?.payload;
  }

  async set(namespace: string, key: string, payload: string, ttlMs: number | undefined): Promise<void> {
    await this.#pool.query(
      `INSERT INTO ${this.#table} (ns, key, payload, expires_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (ns, key) DO UPDATE SET payload = EXCLUDED.payload, expires_at = EXCLUDED.expires_at`,
      [namespace, key, payload, ttlMs === undefined ? null : this.#now() + ttlMs],
    );
  }

  async clear(namespaces?: readonly string[]): Promise<void> {
    if (namespaces === undefined) await this.#pool.query(`DELETE FROM ${this.#table}`);
    else await this.#pool.query(`DELETE FROM ${this.#table} WHERE ns = ANY($1)`, [[...namespaces]]);
  }

  /** Ends the pool if the cache made it. */
  async close(): Promise<void> {
    if (this.#ownsPool) await this.#pool.end();
  }
}
