import type { NodeCache } from './node-cache.js';

/**
 * A {@link NodeCache} in process memory: entries live as long as the object (or their ttl).
 *
 * @example
 * ```ts
 * let runs = 0;
 * const app = new StateGraph(z.object({ url: z.string(), page: z.string().optional() }))
 *   .addNode('fetch', (s) => (runs++, { page: `<html>${s.url}</html>` }), {
 *     cachePolicy: { key: (s: { url: string }) => s.url },
 *   })
 *   .addEdge(START, 'fetch')
 *   .addEdge('fetch', END)
 *   .compile({ cache: new MemoryCache() });
 * await app.invoke({ url: 'https://example.com' }); // the node runs
 * await app.invoke({ url: 'https://example.com' }); // a cache hit: runs is still 1
 * ```
 */
export class MemoryCache implements NodeCache {
  readonly #entries = new Map<string, Map<string, { payload: string; expiresAt: number | undefined }>>();
  readonly #now: () => number;

  /** `now` is the clock (milliseconds since the epoch; default `Date.now`), for tests of expiry. */
  constructor(options: { readonly now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  async get(namespace: string, key: string): Promise<string | undefined> {
    const entry = this.#entries.get(namespace)?.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= this.#now()) {
      this.#entries.get(namespace)?.delete(key);
      return undefined;
    }
    return entry.payload;
  }

  async set(namespace: string, key: string, payload: string, ttlMs: number | undefined): Promise<void> {
    let entries = this.#entries.get(namespace);
    if (!entries) {
      entries = new Map();
      this.#entries.set(namespace, entries);
    }
    entries.set(key, { payload, expiresAt: ttlMs === undefined ? undefined : this.#now() + ttlMs });
  }

  async clear(namespaces?: readonly string[]): Promise<void> {
    if (namespaces === undefined) this.#entries.clear();
    else for (const namespace of namespaces) this.#entries.delete(namespace);
  }
}
