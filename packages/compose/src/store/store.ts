import type { JsonValue } from '../checkpoint/checkpointer.js';
import type { Embeddings } from './embeddings.js';

/**
 * A document kept in a {@link Store}: a JSON object — strings, finite numbers, booleans, `null`, arrays
 * and plain objects, without cycles. Every store checks it on `put` the same way (a `Date`, `Map`,
 * `bigint`, `NaN`, function, class instance or cycle is a `StoreValueError` naming its path) and gives it
 * back as its JSON form (properties set to `undefined` left out).
 */
export type StoreValue = Readonly<Record<string, JsonValue>>;

/**
 * One stored document with where it lives and when it was written.
 *
 * @example
 * ```ts
 * const store = new MemoryStore();
 * await store.put(['memories', 'user-1'], 'food', { likes: 'ramen' });
 * const item = await store.get(['memories', 'user-1'], 'food');
 * if (item) console.log(item.value, item.updatedAt.toISOString());
 * ```
 */
export interface StoreItem {
  /** The namespace path, outermost label first (`['memories', 'user-1']`). */
  readonly namespace: readonly string[];
  readonly key: string;
  readonly value: StoreValue;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** When the document stops being visible (set by `ttlMs`). */
  readonly expiresAt?: Date | undefined;
}

/**
 * A search hit: the item and, for a query ranked by vectors, its cosine similarity (higher is closer).
 *
 * @example
 * ```ts
 * const store = new MemoryStore({ index: { embeddings: new HashingEmbeddings(), fields: ['text'] } });
 * await store.put(['memories'], 'food', { text: 'ramen is my favourite food' });
 * const [best] = await store.search(['memories'], { query: 'favourite food' });
 * console.log(best?.score);
 * ```
 */
export interface StoreSearchItem extends StoreItem {
  /** Cosine similarity to the query, with `query` and an index; absent otherwise. */
  readonly score?: number;
}

/**
 * Options of {@link Store.put}.
 *
 * @example
 * ```ts
 * const store = new MemoryStore();
 * await store.put(['cache'], 'page', { html: '...' }, { index: false, ttlMs: 60_000 });
 * ```
 */
export interface StorePutOptions {
  /**
   * Fields to embed for vector search (paths like `text`, `profile.bio`, `tags[*]`, `$` for the whole
   * document), overriding the store's `index.fields`; `false` stores the document unindexed.
   */
  readonly index?: false | readonly string[];
  /** Milliseconds until the document expires (invisible to every read, removed on `sweep`). */
  readonly ttlMs?: number;
  /**
   * Write only when no live document has this key (an expired one counts as absent); otherwise reject
   * with a `StoreConflictError` and write nothing. Decided atomically by the store, so of writers racing
   * for one key — across processes too — exactly one wins (versioned records take a number this way).
   */
  readonly ifAbsent?: boolean;
}

/**
 * A comparison on one field of a document: a plain JSON value means equality; an object of operators
 * compares (`$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`, `$in`).
 *
 * @example
 * ```ts
 * const filter: StoreFilter = { kind: 'preference', score: { $gte: 0.5 }, lang: { $in: ['en', 'fr'] } };
 * ```
 */
export type StoreFilter = Readonly<Record<string, JsonValue>>;

/**
 * Options of {@link Store.search}.
 *
 * @example
 * ```ts
 * const store = new MemoryStore();
 * const userId = 'u1';
 * const hits = await store.search(['memories', userId], { query: 'diet', filter: { kind: 'fact' }, limit: 5 });
 * ```
 */
export interface StoreSearchOptions {
  /** Natural-language query, ranked by vector similarity when the store has an index (else ignored for ranking). */
  readonly query?: string;
  /** Conditions on top-level fields of the documents (dotted paths reach nested fields). */
  readonly filter?: StoreFilter;
  /** Most hits to return (default 10). */
  readonly limit?: number;
  /** Hits to skip (default 0). */
  readonly offset?: number;
}

/**
 * Options of {@link Store.list}.
 *
 * @example
 * ```ts
 * const store = new MemoryStore();
 * await store.put(['memories', 'u1', 'notes'], 'n1', { text: 'hi' });
 * const users = await store.list(['memories'], { maxDepth: 2 }); // [['memories', 'u1']]
 * ```
 */
export interface StoreListOptions {
  /** Cut namespaces to this many labels (deduplicated). */
  readonly maxDepth?: number;
  /** Most namespaces to return (default 100). */
  readonly limit?: number;
  readonly offset?: number;
}

/**
 * Vector search settings of a store: the embedding model and the default fields to embed.
 *
 * @example
 * ```ts
 * const store = new MemoryStore({ index: { embeddings: new HashingEmbeddings(), fields: ['text'] } });
 * ```
 */
export interface StoreIndexConfig {
  readonly embeddings: Embeddings;
  /** Fields embedded when `put` does not say (default `['$']`, the whole document as JSON). */
  readonly fields?: readonly string[];
}

/**
 * Long-term memory shared across threads: JSON documents under namespaces (`['memories', userId]`),
 * searched by metadata filters and, with an index, by vector similarity. Nodes reach it as `ctx.store`
 * when a graph is compiled or run with `{ store }`; tools reach it as `context.store`.
 *
 * Order: searches without a ranked query return the most recently updated first; ranked ones by score.
 *
 * @example
 * ```ts
 * const store = new MemoryStore();
 * await store.put(['memories', 'u1'], 'diet', { text: 'vegetarian', kind: 'preference' });
 * const hits = await store.search(['memories', 'u1'], { filter: { kind: 'preference' } });
 * ```
 */
export interface Store {
  /**
   * Creates or replaces a document (keeps its `createdAt` when replacing).
   *
   * @throws WeftError `INVALID_ARGUMENT` for an empty namespace, a label that is empty or contains `.`, an
   *   empty key, a value that is not a JSON object (a `StoreValueError` naming the path at fault), or a
   *   `ttlMs` that is not a positive number; `StoreConflictError` (`STORE_CONFLICT`) with `ifAbsent` when
   *   the key is taken.
   */
  put(namespace: readonly string[], key: string, value: StoreValue, options?: StorePutOptions): Promise<void>;
  /** The document, or `undefined` when absent or expired. */
  get(namespace: readonly string[], key: string): Promise<StoreItem | undefined>;
  /** Removes a document (nothing happens when it is absent). */
  delete(namespace: readonly string[], key: string): Promise<void>;
  /** Namespaces that hold live documents and start with `prefix` (all of them for `[]`), sorted. */
  list(prefix: readonly string[], options?: StoreListOptions): Promise<readonly (readonly string[])[]>;
  /** Documents in `namespacePrefix` and the namespaces beneath it that pass `filter`, best first. */
  search(
    namespacePrefix: readonly string[],
    options?: StoreSearchOptions,
  ): Promise<readonly StoreSearchItem[]>;
  /** Removes expired documents now; resolves with how many. */
  sweep(): Promise<number>;
  /** Releases connections the store owns. */
  close?(): Promise<void>;
}
