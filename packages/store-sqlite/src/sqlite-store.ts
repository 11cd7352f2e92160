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
  splitNamespace,
  storeItemFromRow,
  storeRowForPut,
  vectorsFromBytes,
} from '@weft/compose/store';
import type { Database } from 'better-sqlite3';
import { openDatabase, type SqliteStoreOptions } from './open-database.js';
import {
  type SqliteStoreRow,
  type SqliteStoreStatements,
  sqliteStoreStatements,
} from './sqlite-store-statements.js';

/**
 * Options of {@link SqliteStore}: where the data lives, plus vector search settings and a clock.
 *
 * @example
 * ```ts
 * const embeddings = new HashingEmbeddings();
 * const options: SqliteStoreDocumentsOptions = { filename: 'weft.db', index: { embeddings, fields: ['text'] } };
 * ```
 */
export type SqliteStoreDocumentsOptions = SqliteStoreOptions & {
  /** Embed documents on `put` and rank `search` queries by cosine similarity (computed in process). */
  readonly index?: StoreIndexConfig;
  /** Milliseconds since the epoch (default `Date.now`). */
  readonly now?: () => number;
};

/**
 * A long-term document {@link Store} in SQLite (better-sqlite3): the embedded default. Namespace
 * prefixes are primary-key ranges; vectors are float32 blobs beside each document, ranked by cosine
 * similarity in process over the documents of the searched prefix. Can share a file with
 * `SqliteCheckpointer` and `SqliteSessionService`.
 *
 * @example
 * ```ts
 * import { HashingEmbeddings } from '@weft/compose';
 * import { SqliteStore } from '@weft/store-sqlite';
 *
 * const store = new SqliteStore({ filename: 'weft.db', index: { embeddings: new HashingEmbeddings() } });
 * await store.put(['memories', 'u1'], 'm1', { text: 'prefers tea' });
 * const hits = await store.search(['memories', 'u1'], { query: 'drinks' });
 * await store.close();
 * ```
 */
export class SqliteStore implements Store {
  readonly #db: Database;
  readonly #owned: boolean;
  readonly #index: StoreIndexConfig | undefined;
  readonly #now: () => number;
  readonly #sql: SqliteStoreStatements;

  /** @throws {WeftError} code `CHECKPOINT` when the file holds a newer schema than this package knows. */
  constructor(options: SqliteStoreDocumentsOptions = {}) {
    const { db, owned } = openDatabase(options);
    this.#db = db;
    this.#owned = owned;
    this.#index = options.index;
    this.#now = options.now ?? Date.now;
    this.#sql = sqliteStoreStatements(db);
  }

  async put(
    namespace: readonly string[],
    key: string,
    value: StoreValue,
    options?: StorePutOptions,
  ): Promise<void> {
    const row = await storeRowForPut({ namespace, key, value, options, index: this.#index, now: this.#now });
    const blob = row.vectors && Buffer.from(row.vectors.buffer);
    const statement = options?.ifAbsent ? this.#sql.insertIfAbsent : this.#sql.upsert;
    const { changes } = statement.run(
      row.ns,
      row.key,
      row.value,
      row.now,
      row.now,
      row.expiresAt,
      row.dims,
      blob,
      row.now,
    );
    // One statement, so one writer of the file at a time: a taken key changes no row.
    if (changes === 0) throw new StoreConflictError(namespace, key);
  }

  async get(namespace: readonly string[], key: string): Promise<StoreItem | undefined> {
    checkNamespace(namespace, 'get');
    const row = this.#sql.get.get(joinNamespace(namespace), key, this.#now()) as SqliteStoreRow | undefined;
    return row ? storeItemFromRow(row) : undefined;
  }

  async delete(namespace: readonly string[], key: string): Promise<void> {
    checkNamespace(namespace, 'delete');
    this.#sql.delete.run(joinNamespace(namespace), key);
  }

  async list(prefix: readonly string[], options?: StoreListOptions): Promise<readonly (readonly string[])[]> {
    checkNamespace(prefix, 'list', true);
    const [exact, low, high] = namespaceRange(prefix);
    const rows = this.#sql.namespaces.all(exact, low, high, this.#now()) as { ns: string }[];
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
    const range = namespaceRange(namespacePrefix);
    const now = this.#now();
    if (!queryVector && options.filter === undefined) {
      const rows = this.#sql.recent.all(
        ...range,
        now,
        options.limit ?? 10,
        options.offset ?? 0,
      ) as SqliteStoreRow[];
      return rows.map(storeItemFromRow);
    }
    const candidates: StoreCandidate[] = [];
    for (const row of this.#sql.scan.iterate(...range, now) as Iterable<SqliteStoreRow>) {
      candidates.push({
        item: storeItemFromRow(row),
        vectors: queryVector ? vectorsFromBytes(row.vectors, row.dims) : [],
      });
    }
    return rankItems(candidates, options, queryVector);
  }

  async sweep(): Promise<number> {
    return this.#sql.sweep.run(this.#now()).changes;
  }

  /** Closes the database when the store opened it (not one you passed in). */
  async close(): Promise<void> {
    if (this.#owned && this.#db.open) this.#db.close();
  }
}
