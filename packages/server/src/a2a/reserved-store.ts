// A view of the server's store under a reserved prefix, for documents no Store API caller may reach
// (the Store API refuses namespaces starting with `weft-server`).
import type {
  Store,
  StoreItem,
  StoreListOptions,
  StorePutOptions,
  StoreSearchItem,
  StoreSearchOptions,
  StoreValue,
} from '@weft/compose';

/**
 * `store` with every namespace prefixed by `prefix` (and the prefix taken off what it answers), so a
 * component written against a whole `Store` (`@weft/a2a`'s task store) keeps its documents where the
 * server's own records are. `sweep` sweeps the whole store; `close` is the server's to call.
 */
export class ReservedStore implements Store {
  constructor(
    private readonly store: Store,
    private readonly prefix: readonly string[],
  ) {}

  put(
    namespace: readonly string[],
    key: string,
    value: StoreValue,
    options?: StorePutOptions,
  ): Promise<void> {
    return this.store.put(this.#in(namespace), key, value, options);
  }

  async get(namespace: readonly string[], key: string): Promise<StoreItem | undefined> {
    const item = await this.store.get(this.#in(namespace), key);
    return item && { ...item, namespace: this.#out(item.namespace) };
  }

  delete(namespace: readonly string[], key: string): Promise<void> {
    return this.store.delete(this.#in(namespace), key);
  }

  async list(prefix: readonly string[], options?: StoreListOptions): Promise<readonly (readonly string[])[]> {
    const maxDepth =
      options?.maxDepth === undefined ? {} : { maxDepth: options.maxDepth + this.prefix.length };
    const namespaces = await this.store.list(this.#in(prefix), { ...options, ...maxDepth });
    return namespaces.map((namespace) => this.#out(namespace)).filter((namespace) => namespace.length > 0);
  }

  async search(
    namespacePrefix: readonly string[],
    options?: StoreSearchOptions,
  ): Promise<readonly StoreSearchItem[]> {
    const items = await this.store.search(this.#in(namespacePrefix), options);
    return items.map((item) => ({ ...item, namespace: this.#out(item.namespace) }));
  }

  sweep(): Promise<number> {
    return this.store.sweep();
  }

  #in(namespace: readonly string[]): string[] {
    return [...this.prefix, ...namespace];
  }

  #out(namespace: readonly string[]): string[] {
    return namespace.slice(this.prefix.length);
  }
}
