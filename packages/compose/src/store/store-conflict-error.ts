import { WeftError } from '../errors/weft-error.js';

/**
 * A `put` with `ifAbsent: true` found a live document under its key: nothing was written. Every store
 * decides it atomically (a transaction or a conditional insert), so of several writers racing for one
 * key — in one process or many — exactly one wins.
 *
 * @example
 * ```ts
 * const store = new MemoryStore();
 * await store.put(['jobs'], 'j1', { owner: 'a' }, { ifAbsent: true });
 * try {
 *   await store.put(['jobs'], 'j1', { owner: 'b' }, { ifAbsent: true });
 * } catch (error) {
 *   if (error instanceof StoreConflictError) console.log(error.key); // 'j1' is taken
 * }
 * ```
 */
export class StoreConflictError extends WeftError<'STORE_CONFLICT'> {
  readonly namespace: readonly string[];
  readonly key: string;

  constructor(namespace: readonly string[], key: string) {
    super('STORE_CONFLICT', `store.put: "${key}" in [${namespace}] exists (ifAbsent)`);
    this.name = 'StoreConflictError';
    this.namespace = [...namespace];
    this.key = key;
  }
}
