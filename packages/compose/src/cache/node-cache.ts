/**
 * Where node results are cached (`compile({ cache })`, a node's `cachePolicy`). Entries are serialized
 * node writes under a namespace (the graph and node) and a key (by default a hash of the node's input).
 * `MemoryCache` here, `SqliteCache` in `@weft/store-sqlite`, `PostgresCache` in `@weft/store-postgres`;
 * `describeNodeCacheConformance` from `@weft/compose/testing` checks an implementation.
 *
 * @example
 * ```ts
 * const cache: NodeCache = new MemoryCache();
 * await cache.set('graph|fetch', 'k1', '{"body":"…"}', 60_000);
 * await cache.get('graph|fetch', 'k1'); // '{"body":"…"}' for a minute, then undefined
 * ```
 */
export interface NodeCache {
  /** The payload stored under `namespace` and `key`, or `undefined` when absent or expired. */
  get(namespace: string, key: string): Promise<string | undefined>;
  /** Stores `payload`, replacing an entry with the same key; it expires after `ttlMs` (never when undefined). */
  set(namespace: string, key: string, payload: string, ttlMs: number | undefined): Promise<void>;
  /** Drops the entries of these namespaces, or every entry when none are given. */
  clear(namespaces?: readonly string[]): Promise<void>;
}

/**
 * When a node's result is reused: a node whose cache key was seen within `ttl` seconds returns the cached
 * write without running (as the reference engine's `CachePolicy`).
 *
 * @example
 * ```ts
 * new StateGraph(z.object({ url: z.string(), page: z.string().optional() }))
 *   .addNode('fetch', async (s) => ({ page: await (await fetch(s.url)).text() }), {
 *     cachePolicy: { key: (state: { url: string }) => state.url, ttl: 600 }, // one fetch per URL per 10 minutes
 *   });
 * ```
 */
export interface CachePolicy {
  /**
   * The cache key of a task's input (the state, or a `Send`'s input); default: a SHA-256 of the
   * serialized input, so equal inputs share an entry.
   */
  readonly key?: (input: never) => string;
  /** Seconds an entry stays valid (default: until the cache is cleared). */
  readonly ttl?: number;
}
