import { WeftError } from '../errors/weft-error.js';

/**
 * A value given to a store's `put` that is not JSON: thrown the same way by every store, before
 * anything is written. `path` names the offending place inside the document (`meta.joined`,
 * `tags[2]`, `["a.b"].when`; `$` for the document itself).
 *
 * @example
 * ```ts
 * const store = new MemoryStore();
 * try {
 *   await store.put(['users', 'u1'], 'profile', { joined: new Date() } as never);
 * } catch (error) {
 *   if (error instanceof StoreValueError) console.log(error.path); // 'joined'
 * }
 * ```
 */
export class StoreValueError extends WeftError<'INVALID_ARGUMENT'> {
  /** The document's key. */
  readonly key: string;
  /** Where in the document the value that is not JSON sits. */
  readonly path: string;

  constructor(key: string, path: string, what: string) {
    super(
      'INVALID_ARGUMENT',
      `store.put: "${key}" is not JSON at ${path}: ${what} (store values hold strings, finite numbers, booleans, null, arrays and plain objects; write a Date as an ISO string)`,
    );
    this.name = 'StoreValueError';
    this.key = key;
    this.path = path;
  }
}
