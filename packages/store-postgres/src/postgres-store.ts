import {
  checkNamespace,
  checkPut,
  embedDocument,
  joinNamespace,
  pageNamespaces,
  prepareSearch,
  rankItems,
  type Store,
  type StoreCandidate,
  type StoreIndexConfig,
  type StoreItem,
  type StoreListOptions,
  type StorePutOptions,
  type StoreSearchItem,
  type StoreSearchOptions,
  type StoreValue,
  splitNamespace,
} from '@weft/compose';
import pg, { type Pool, type QueryResultRow } from 'pg';
import { type PostgresTables, postgresTables, setupPostgresSchema } from './postgres-schema.js';
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
export type PostgresStoreOptions = ({ readonly pool: Pool } | { readonly connectionString: string }) & {
  /** Schema that holds the tables; `public` by default. */
  readonly schema?: string;
  /** Prefix of the table names; `weft_` by default (shared with the checkpointer and session service). */
  readonly tablePrefix?: string;
  /** Embed documents on `put` and rank `search` queries by cosine similarity (computed in process). */
  readonly index?: StoreIndexConfig;
  /** Milliseconds since the epoch (default `Date.now`). */
  readonly now?: () => number;
};

interface StoreRow extends QueryResultRow {
  ns: string;
  key: string;
  value: string;
  created_at: number;
  updated_at: number;
  expires_at: number | null;
  dims?: number | null;
  vectors?: Buffer | null;
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
    this.#tables = postgresTables(options.schema ?? 'public', options.tablePrefix ?? 'weft_');
    this.#name = `${statementPrefix(this.#tables)}_store`;
    this.#index = options.index;
    this.#now = options.now ?? Date.now;
    if ('pool' in options) {
      this.#pool = options.pool;
      this.#ownsPool = false;
    } else {
      this.#pool = new pg.Pool({ connectionString: options.connectionString });
      this.#pool.on('error', () => undefined);
      this.#ownsPool = true;
    }
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
    checkPut(namespace, key, value, options);
    const vectors = await embedDocument(this.#index, value, options);
    const now = this.#now();
    const dims = vectors[0]?.length ?? null;
    const blob = dims === null ? null : Buffer.from(new Float32Array(vectors.flat()).buffer);
    const expires = options?.ttlMs === undefined ? null : now + options.ttlMs;
    const table = this.#tables.store;
    await this.#pool.query({
      name: `${this.#name}_put`,
      text: `INSERT INTO ${table} AS old (ns, key, value, created_at, updated_at, expires_at, dims, vectors)
             VALUES ($1, $2, $3, $4, $4, $5, $6, $7)
             ON CONFLICT (ns, key) DO UPDATE SET
               value = EXCLUDED.value, updated_at = EXCLUDED.updated_at, expires_at = EXCLUDED.expires_at,
               dims = EXCLUDED.dims, vectors = EXCLUDED.vectors,
               created_at = CASE WHEN old.expires_at IS NOT NULL AND old.expires_at <= $4
                                 THEN EXCLUDED.created_at ELSE old.created_at END`,
      values: [joinNamespace(namespace), key, JSON.stringify(value), now, expires, dims, blob],
    });
  }

  async get(namespace: readonly string[], key: string): Promise<StoreItem | undefined> {
    checkNamespace(namespace, 'get');
    const { rows } = await this.#pool.query<StoreRow>({
      name: `${this.#name}_get`,
      text: `SELECT ${COLUMNS} FROM ${this.#tables.store}
             WHERE ns = $1 AND key = $2 AND (expires_at IS NULL OR expires_at > $3)`,
      values: [joinNamespace(namespace), key, this.#now()],
    });
    return rows[0] ? itemOf(rows[0]) : undefined;
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
      const { rows } = await this.#pool.query<StoreRow>({
        name: `${this.#name}_recent`,
        text: `SELECT ${COLUMNS} FROM ${this.#tables.store} WHERE ${IN_PREFIX} AND ${LIVE}
               ORDER BY updated_at DESC, ns, key LIMIT $5 OFFSET $6`,
        values: [...values, options.limit ?? 10, options.offset ?? 0],
      });
      return rows.map(itemOf);
    }
    const { rows } = await this.#pool.query<StoreRow>({
      name: `${this.#name}_scan${queryVector ? '_vectors' : ''}`,
      text: `SELECT ${COLUMNS}${queryVector ? ', dims, vectors' : ''} FROM ${this.#tables.store}
             WHERE ${IN_PREFIX} AND ${LIVE}`,
      values,
    });
    const candidates: StoreCandidate[] = rows.map((row) => ({ item: itemOf(row), vectors: vectorsOf(row) }));
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

function namespaceRange(prefix: readonly string[]): [string, string, string] {
  if (prefix.length === 0) return ['', '', '\u{10FFFF}'];
  const joined = prefix.join('.');
  return [joined, `${joined}.`, `${joined}/`];
}

function vectorsOf(row: StoreRow): Float32Array[] {
  const { vectors, dims } = row;
  if (!vectors || !dims) return [];
  const copy = new Float32Array(vectors.byteLength / Float32Array.BYTES_PER_ELEMENT);
  new Uint8Array(copy.buffer).set(vectors);
  const result: Float32Array[] = [];
  for (let start = 0; start < copy.length; start += dims) result.push(copy.subarray(start, start + dims));
  return result;
}

function itemOf(row: StoreRow): StoreItem {
  return {
    namespace: splitNamespace(row.ns),
    key: row.key,
    value: JSON.parse(row.value) as StoreValue,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    ...(row.expires_at === null ? {} : { expiresAt: new Date(row.expires_at) }),
  };
}
