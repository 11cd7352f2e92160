import type {
  Store,
  StoreIndexConfig,
  StoreItem,
  StoreListOptions,
  StorePutOptions,
  StoreSearchItem,
  StoreSearchOptions,
  StoreValue,
} from '@weft/compose';
import {
  checkNamespace,
  joinNamespace,
  namespaceRange,
  pageNamespaces,
  prepareSearch,
  rankItems,
  type StoreCandidate,
  StoreConflictError,
  type StoreRow,
  splitNamespace,
  storeItemFromRow,
  storeRowForPut,
  vectorsFromBytes,
} from '@weft/compose/store';
import type { Pool } from 'pg';
import { type PostgresConnectionOptions, postgresConnection } from './postgres-connection.js';
import { type PostgresTables, setupPostgresSchema } from './postgres-schema.js';
import { statementPrefix } from './statement-prefix.js';

/**
 * Options of {@link PostgresStore}: a pool (yours) or a connection string (a pool it owns), where the
 * tables live, vector search settings and a clock.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const embeddings = new HashingEmbeddings();
 * const options: PostgresStoreOptions = { pool, schema: 'agents', index: { embeddings, fields: ['text'] } };
 * ```
 */
export type PostgresStoreOptions = PostgresConnectionOptions & {
  /** Embed documents on `put` and rank `search` queries by cosine similarity (computed in process). */
  readonly index?: StoreIndexConfig;
  /** Milliseconds since the epoch (default `Date.now`). */
  readonly now?: () => number;
};

/** A document row, with its vectors when the query asked for them. */
interface VectorRow extends StoreRow {
  readonly dims?: number | null;
  readonly vectors?: Buffer | null;
}

const COLUMNS = 'ns, key, value, created_at, updated_at, expires_at';
const IN_PREFIX = '(ns = $1 OR (ns > $2 AND ns < $3))';
const LIVE = '(expires_at IS NULL OR expires_at > $4)';

/**
 * A long-term document {@link Store} in PostgreSQL on `pg`, for many processes. Namespace prefixes are
 * primary-key ranges; vectors are float32 `bytea` beside each document, ranked by cosine similarity in
 * process over the searched prefix (pgvector is not used). Call {@link setup} once before use.
 *
 * @example
 * ```ts
 * const graph = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END);
 * import { PostgresStore } from '@weft/store-postgres';
 *
 * const store = new PostgresStore({ connectionString: process.env.DATABASE_URL! });
 * await store.setup();
 * await store.put(['memories', 'u1'], 'm1', { text: 'prefers tea' });
 * const app = graph.compile({ store });
 * ```
 */
export class PostgresStore implements Store {
  readonly #pool: Pool;
  readonly #ownsPool: boolean;
  readonly #tables: PostgresTables;
  readonly #name: string;
  readonly #index: StoreIndexConfig | undefined;
  readonly #now: () => number;

  /** @throws {WeftError} code `INVALID_ARGUMENT` when the schema or table prefix is not a plain identifier. */
  constructor(options: PostgresStoreOptions) {
    const { pool, ownsPool, tables } = postgresConnection(options);
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    this.#tables = tables;
    this.#name = `${statementPrefix(tables)}_store`;
    this.#index = options.index;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Creates or upgrades the tables (shared with the checkpointer and session service); idempotent.
   *
   * @throws {WeftError} code `CHECKPOINT` when the tables were written by a newer version of this package.
   */
  async setup(): Promise<void> {
    await setupPostgresSchema(this.#pool, this.#tables);
  }

  async put(
    namespace: readonly string[],
    key: string,
    value: StoreValue,
    options?: StorePutOptions,
  ): Promise<void> {
    const row = await storeRowForPut({ namespace, key, value, options, index: this.#index, now: this.#now });
    const blob = row.vectors && Buffer.from(row.vectors.buffer);
    const table = this.#tables.store;
    const ifAbsent = options?.ifAbsent === true;
    // With ifAbsent only an expired document is replaced: ON CONFLICT decides it atomically, so a taken
    // key (whoever took it, in whatever process) returns no row.
    const { rowCount } = await this.#pool.query({
      name: `${this.#name}_put${ifAbsent ? '_if_absent' : ''}`,
      text: `INSERT INTO ${table} AS old (ns, key, value, created_at, updated_at, expires_at, dims, vectors)
             VALUES ($1, $2, $3, $4, $4, $5, $6, $7)
             ON CONFLICT (ns, key) DO UPDATE SET
               value = EXCLUDED.value, updated_at = EXCLUDED.updated_at, expires_at = EXCLUDED.expires_at,
               dims = EXCLUDED.dims, vectors = EXCLUDED.vectors,
               created_at = CASE WHEN old.expires_at IS NOT NULL AND old.expires_at <= $4
                                 THEN EXCLUDED.created_at ELSE old.created_at END
             ${ifAbsent ? 'WHERE old.expires_at IS NOT NULL AND old.expires_at <= $4' : ''}`,
      values: [row.ns, row.key, row.value, row.now, row.expiresAt, row.dims, blob],
    });
    if (rowCount === 0) throw new StoreConflictError(namespace, key);
  }

  async get(namespace: readonly string[], key: string): Promise<StoreItem | undefined> {
    checkNamespace(namespace, 'get');
    const { rows } = await this.#pool.query<VectorRow>({
      name: `${this.#name}_get`,
      text: `SELECT ${COLUMNS} FROM ${this.#tables.store}
             WHERE ns = $1 AND key = $2 AND (expires_at IS NULL OR expires_at > $3)`,
      values: [joinNamespace(namespace), key, this.#now()],
    });
    return rows[0] ? storeItemFromRow(rows[0]) : undefined;
  }

  async delete(namespace: readonly string[], key: string): Promise<void> {
    checkNamespace(namespace, 'delete');
    await this.#pool.query({
      name: `${this.#name}_delete`,
      text: `DELETE FROM ${this.#tables.store} WHERE ns = $1 AND key = $2`,
      values: [joinNamespace(namespace), key],
    });
  }

  async list(prefix: readonly string[], options?: StoreListOptions): Promise<readonly (readonly string[])[]> {
    checkNamespace(prefix, 'list', true);
    const { rows } = await this.#pool.query<{ ns: string }>({
      name: `${this.#name}_list`,
      text: `SELECT DISTINCT ns FROM ${this.#tables.store} WHERE ${IN_PREFIX} AND ${LIVE}`,
      values: [...namespaceRange(prefix), this.#now()],
    });
    return pageNamespaces(
      rows.map((row) => splitNamespace(row.ns)),
      options,
    );
  }

  async search(
    namespacePrefix: readonly string[],
    options: StoreSearchOptions = {},
  ): Promise<readonly StoreSearchItem[]> {
    checkNamespace(namespacePrefix, 'search', true);
    const queryVector = await prepareSearch(this.#index, options);
    const values = [...namespaceRange(namespacePrefix), this.#now()];
    if (!queryVector && options.filter === undefined) {
      const { rows } = await this.#pool.query<VectorRow>({
        name: `${this.#name}_recent`,
        text: `SELECT ${COLUMNS} FROM ${this.#tables.store} WHERE ${IN_PREFIX} AND ${LIVE}
               ORDER BY updated_at DESC, ns, key LIMIT $5 OFFSET $6`,
        values: [...values, options.limit ?? 10, options.offset ?? 0],
      });
      return rows.map(storeItemFromRow);
    }
    const { rows } = await this.#pool.query<VectorRow>({
      name: `${this.#name}_scan${queryVector ? '_vectors' : ''}`,
      text: `SELECT ${COLUMNS}${queryVector ? ', dims, vectors' : ''} FROM ${this.#tables.store}
             WHERE ${IN_PREFIX} AND ${LIVE}`,
      values,
    });
    const candidates: StoreCandidate[] = rows.map((row) => ({
      item: storeItemFromRow(row),
      vectors: vectorsFromBytes(row.vectors, row.dims),
    }));
    return rankItems(candidates, options, queryVector);
  }

  async sweep(): Promise<number> {
    const result = await this.#pool.query({
      name: `${this.#name}_sweep`,
      text: `DELETE FROM ${this.#tables.store} WHERE expires_at IS NOT NULL AND expires_at <= $1`,
      values: [this.#now()],
    });
    return result.rowCount ?? 0;
  }

  /** Ends the pool when the store created it (not one you passed in). */
  async close(): Promise<void> {
    if (this.#ownsPool) await this.#pool.end();
  }
}
