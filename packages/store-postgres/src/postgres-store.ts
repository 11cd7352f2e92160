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
import {
  ensureHnswIndex,
  findPgVector,
  type PgVector,
  setupVectorTable,
  type VectorSearchMode,
  vectorLiterals,
  vectorTableExists,
} from './pgvector.js';

/** pgvector as one store object uses it: always to keep the vector table, to search when `search`. */
interface VectorUse {
  readonly vector: PgVector;
  readonly search: boolean;
}

import { type PostgresConnectionOptions, postgresConnection } from './postgres-connection.js';
import { type PostgresTables, setupPostgresSchema } from './postgres-schema.js';
import { HNSW_MAX_DIMS, searchInDatabase } from './postgres-vector-search.js';
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
  /** Embed documents on `put` and rank `search` queries by cosine similarity. */
  readonly index?: StoreIndexConfig;
  /**
   * Where vector queries are ranked: `auto` (default) in the database with pgvector and an HNSW index
   * when the server has the extension (created if missing), else in process; `database` requires
   * pgvector; `in-process` never uses it.
   */
  readonly vectorSearch?: VectorSearchMode;
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
 * primary-key ranges; vectors are float32 `bytea` beside each document and, when the server has
 * pgvector, rows of a vector table with an HNSW index (cosine), where vector queries are ranked; without
 * it they are ranked in process over the searched prefix. Call {@link setup} once before use.
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
  readonly #mode: VectorSearchMode;
  #vector: Promise<VectorUse | undefined> | undefined;
  readonly #indexed = new Map<number, Promise<void>>();

  /** @throws {WeftError} code `INVALID_ARGUMENT` when the schema or table prefix is not a plain identifier. */
  constructor(options: PostgresStoreOptions) {
    const { pool, ownsPool, tables } = postgresConnection(options);
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    this.#tables = tables;
    this.#name = `${statementPrefix(tables)}_store`;
    this.#index = options.index;
    this.#now = options.now ?? Date.now;
    this.#mode = options.vectorSearch ?? 'auto';
  }

  /**
   * Creates or upgrades the tables (shared with the checkpointer and session service); idempotent.
   *
   * @throws {WeftError} code `CHECKPOINT` when the tables were written by a newer version of this package.
   */
  async setup(): Promise<void> {
    await setupPostgresSchema(this.#pool, this.#tables);
    this.#vector = undefined;
    await this.#pgvector();
  }

  /**
   * Where this store ranks vector queries: `database` (pgvector, HNSW index) or `in-process`. Decided
   * once per store object, at `setup()` or first use.
   *
   * @throws {WeftError} `INVALID_ARGUMENT` with `vectorSearch: 'database'` on a server without pgvector.
   */
  async vectorSearch(): Promise<'database' | 'in-process'> {
    return (await this.#pgvector())?.search ? 'database' : 'in-process';
  }

  /**
   * pgvector and the vector table, found (or made) once. A store that ranks in database (`auto` or
   * `database` mode, with an index) creates them; any other keeps the vector table up to date when it
   * exists, so documents it replaces or deletes never leave stale vectors behind.
   */
  #pgvector(): Promise<VectorUse | undefined> {
    this.#vector ??= (async () => {
      const searches = this.#mode !== 'in-process' && this.#index !== undefined;
      const vector = await findPgVector(this.#pool, searches ? this.#mode : 'auto', searches);
      if (!vector) return undefined;
      if (searches) {
        await setupVectorTable(this.#pool, this.#tables, vector);
        return { vector, search: true };
      }
      return (await vectorTableExists(this.#pool, this.#tables)) ? { vector, search: false } : undefined;
    })();
    this.#vector.catch(() => {
      this.#vector = undefined;
    });
    return this.#vector;
  }

  /** The HNSW index of vectors of `dims` (once per length and store object). */
  #hnsw(vector: PgVector, dims: number): Promise<void> {
    if (dims > HNSW_MAX_DIMS) return Promise.resolve();
    let made = this.#indexed.get(dims);
    if (!made) {
      made = ensureHnswIndex(this.#pool, this.#tables, vector, dims);
      made.catch(() => this.#indexed.delete(dims));
      this.#indexed.set(dims, made);
    }
    return made;
  }

  async put(
    namespace: readonly string[],
    key: string,
    value: StoreValue,
    options?: StorePutOptions,
  ): Promise<void> {
    const row = await storeRowForPut({ namespace, key, value, options, index: this.#index, now: this.#now });
    const blob = row.vectors && Buffer.from(row.vectors.buffer);
    const vector = (await this.#pgvector())?.vector;
    if (vector && row.dims) await this.#hnsw(vector, row.dims);
    const ifAbsent = options?.ifAbsent === true;
    // With ifAbsent only an expired document is replaced: ON CONFLICT decides it atomically, so a taken
    // key (whoever took it, in whatever process) writes nothing.
    const upsert = `INSERT INTO ${this.#tables.store} AS old (ns, key, value, created_at, updated_at, expires_at, dims, vectors)
             VALUES ($1, $2, $3, $4, $4, $5, $6, $7)
             ON CONFLICT (ns, key) DO UPDATE SET
               value = EXCLUDED.value, updated_at = EXCLUDED.updated_at, expires_at = EXCLUDED.expires_at,
               dims = EXCLUDED.dims, vectors = EXCLUDED.vectors,
               created_at = CASE WHEN old.expires_at IS NOT NULL AND old.expires_at <= $4
                                 THEN EXCLUDED.created_at ELSE old.created_at END
             ${ifAbsent ? 'WHERE old.expires_at IS NOT NULL AND old.expires_at <= $4' : ''}`;
    const values = [row.ns, row.key, row.value, row.now, row.expiresAt, row.dims, blob];
    const written = vector
      ? await this.#putWithVectors(upsert, values, vectorLiterals(row.vectors, row.dims), vector)
      : ((
          await this.#pool.query({
            name: `${this.#name}_put${ifAbsent ? '_if_absent' : ''}`,
            text: upsert,
            values,
          })
        ).rowCount ?? 0);
    if (written === 0) throw new StoreConflictError(namespace, key);
  }

  /**
   * The document and its vector rows in one statement: the document upserted, its vector rows replaced
   * (the new fields upserted, fields beyond them deleted). Resolves with the documents written (0: taken).
   */
  async #putWithVectors(
    upsert: string,
    values: readonly unknown[],
    literals: readonly string[],
    vector: PgVector,
  ): Promise<number> {
    const table = this.#tables.storeVectors;
    const { rows } = await this.#pool.query<{ written: number }>({
      name: `${this.#name}_put_vectors${upsert.includes('WHERE old.') ? '_if_absent' : ''}`,
      text: `WITH doc AS (${upsert} RETURNING ns, key),
             gone AS (DELETE FROM ${table} v USING doc WHERE v.ns = doc.ns AND v.key = doc.key AND v.field >= $9),
             added AS (
               INSERT INTO ${table} (ns, key, field, dims, embedding)
               SELECT doc.ns, doc.key, f.ordinality - 1, $6, f.embedding::${vector.type}
               FROM doc, unnest($8::text[]) WITH ORDINALITY AS f(embedding, ordinality)
               ON CONFLICT (ns, key, field) DO UPDATE SET dims = EXCLUDED.dims, embedding = EXCLUDED.embedding
             )
             SELECT count(*)::int AS written FROM doc`,
      values: [...values, literals, literals.length],
    });
    return rows[0]?.written ?? 0;
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
    const use = queryVector ? await this.#pgvector() : undefined;
    const vector = use?.search ? use.vector : undefined;
    if (vector && queryVector) {
      await this.#hnsw(vector, queryVector.length);
      const range = namespaceRange(namespacePrefix);
      const search = {
        pool: this.#pool,
        tables: this.#tables,
        vector,
        name: this.#name,
        range,
        now: values[3] as number,
      };
      const found = await searchInDatabase(search, queryVector, options);
      if (found) return found;
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
