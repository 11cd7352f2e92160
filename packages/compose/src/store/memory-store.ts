import type {
  Store,
  StoreIndexConfig,
  StoreItem,
  StoreListOptions,
  StorePutOptions,
  StoreSearchItem,
  StoreSearchOptions,
  StoreValue,
} from './store.js';
import { StoreConflictError } from './store-conflict-error.js';
import { checkNamespace, checkPut, joinNamespace, namespaceStartsWith } from './store-namespace.js';
import {
  embedDocument,
  pageNamespaces,
  prepareSearch,
  rankItems,
  type StoreCandidate,
} from './store-search.js';
import { storedValue } from './store-value.js';

/**
 * Options of stores: vector search settings and a clock (for TTL tests).
 *
 * @example
 * ```ts
 * const options: StoreOptions = { index: { embeddings: new HashingEmbeddings(), fields: ['text'] } };
 * ```
 */
export interface StoreOptions {
  /** Embed documents on `put` and rank `search` queries by similarity. */
  readonly index?: StoreIndexConfig;
  /** Milliseconds since the epoch (default `Date.now`); decides `createdAt`, `updatedAt` and expiry. */
  readonly now?: () => number;
}

/**
 * A {@link Store} in process memory: for tests, demos and single-process apps. Vector search compares
 * the query with every indexed document of the namespace prefix (exact, not approximate).
 *
 * @example
 * ```ts
 * const store = new MemoryStore({ index: { embeddings: new HashingEmbeddings(), fields: ['text'] } });
 * const app = new StateGraph(z.object({ question: z.string() }))
 *   .addNode('answer', async (s, ctx) => ({ question: `${s.question} (${(await ctx.store?.search(['memories', 'u1'], { query: s.question }))?.length} memories)` }))
 *   .addEdge(START, 'answer')
 *   .addEdge('answer', END)
 *   .compile({ store });
 * await store.put(['memories', 'u1'], 'm1', { text: 'prefers window seats' });
 * const [hit] = await store.search(['memories', 'u1'], { query: 'seat preference' });
 * ```
 */
export class MemoryStore implements Store {
  readonly #documents = new Map<string, StoreCandidate>();
  readonly #index: StoreIndexConfig | undefined;
  readonly #now: () => number;

  constructor(options: StoreOptions = {}) {
    this.#index = options.index;
    this.#now = options.now ?? Date.now;
  }

  async put(
    namespace: readonly string[],
    key: string,
    value: StoreValue,
    options?: StorePutOptions,
  ): Promise<void> {
    checkPut(namespace, key, value, options);
    // Kept as its JSON form, as the SQL stores keep it, so every store gives back the same document.
    const copy = storedValue(value);
    const vectors = await embedDocument(this.#index, copy, options);
    const id = idOf(namespace, key);
    const now = this.#now();
    const previous = this.#live(id, now);
    // Checked and written with no await between: concurrent puts of one process cannot both win.
    if (previous && options?.ifAbsent) throw new StoreConflictError(namespace, key);
    const item: StoreItem = {
      namespace: [...namespace],
      key,
      value: copy,
      createdAt: previous?.item.createdAt ?? new Date(now),
      updatedAt: new Date(now),
      ...(options?.ttlMs === undefined ? {} : { expiresAt: new Date(now + options.ttlMs) }),
    };
    this.#documents.set(id, { item, vectors });
  }

  async get(namespace: readonly string[], key: string): Promise<StoreItem | undefined> {
    checkNamespace(namespace, 'get');
    const found = this.#live(idOf(namespace, key), this.#now());
    return found ? cloneItem(found.item) : undefined;
  }

  async delete(namespace: readonly string[], key: string): Promise<void> {
    checkNamespace(namespace, 'delete');
    this.#documents.delete(idOf(namespace, key));
  }

  async list(prefix: readonly string[], options?: StoreListOptions): Promise<readonly (readonly string[])[]> {
    checkNamespace(prefix, 'list', true);
    const now = this.#now();
    const namespaces: (readonly string[])[] = [];
    for (const { item } of this.#documents.values()) {
      if (!expired(item, now) && namespaceStartsWith(item.namespace, prefix)) namespaces.push(item.namespace);
    }
    return pageNamespaces(namespaces, options);
  }

  async search(
    namespacePrefix: readonly string[],
    options: StoreSearchOptions = {},
  ): Promise<readonly StoreSearchItem[]> {
    checkNamespace(namespacePrefix, 'search', true);
    const queryVector = await prepareSearch(this.#index, options);
    const now = this.#now();
    const candidates: StoreCandidate[] = [];
    for (const candidate of this.#documents.values()) {
      const { item } = candidate;
      if (!expired(item, now) && namespaceStartsWith(item.namespace, namespacePrefix))
        candidates.push(candidate);
    }
    return rankItems(candidates, options, queryVector).map(cloneItem);
  }

  async sweep(): Promise<number> {
    const now = this.#now();
    let removed = 0;
    for (const [id, { item }] of this.#documents) {
      if (expired(item, now)) {
        this.#documents.delete(id);
        removed++;
      }
    }
    return removed;
  }

  #live(id: string, now: number): StoreCandidate | undefined {
    const found = this.#documents.get(id);
    return found && !expired(found.item, now) ? found : undefined;
  }
}

function idOf(namespace: readonly string[], key: string): string {
  return `${joinNamespace(namespace)}\u0000${key}`;
}

function expired(item: StoreItem, now: number): boolean {
  return item.expiresAt !== undefined && item.expiresAt.getTime() <= now;
}

function cloneItem<T extends StoreItem>(item: T): T {
  return { ...item, namespace: [...item.namespace], value: structuredClone(item.value) as StoreValue };
}
