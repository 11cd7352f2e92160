import { WeftError } from '../errors/weft-error.js';
import type { StorePutOptions, StoreValue } from './store.js';
import { checkStoreValue } from './store-value.js';
import type { StoreValueError } from './store-value-error.js';

/**
 * Checks a namespace: at least one label, each a non-empty string without `.` (the separator of
 * {@link joinNamespace}).
 *
 * @throws WeftError `INVALID_ARGUMENT` naming the label at fault.
 * @example
 * ```ts
 * checkNamespace(['memories', 'user-1'], 'put');
 * ```
 */
export function checkNamespace(namespace: readonly string[], method: string, allowEmpty = false): void {
  if (!Array.isArray(namespace) || (!allowEmpty && namespace.length === 0)) {
    throw new WeftError('INVALID_ARGUMENT', `store.${method}: namespace must be a non-empty array of labels`);
  }
  for (const label of namespace) {
    if (typeof label !== 'string' || label === '' || label.includes('.')) {
      throw new WeftError(
        'INVALID_ARGUMENT',
        `store.${method}: namespace label ${JSON.stringify(label)} must be a non-empty string without "."`,
      );
    }
  }
}

/**
 * Checks the arguments of `put` (namespace, key, value, options) before a store writes anything; the
 * value must be a JSON object ({@link checkStoreValue}).
 *
 * @throws WeftError `INVALID_ARGUMENT` naming the argument at fault ({@link StoreValueError}, naming the
 *   path, for a value that is not JSON).
 * @example
 * ```ts
 * checkPut(['memories', 'u1'], 'prefs', { theme: 'dark' }, undefined); // fine
 * checkPut(['memories', 'u.1'], 'prefs', { theme: 'dark' }, undefined); // throws INVALID_ARGUMENT: label "u.1" has a "."
 * ```
 */
export function checkPut(
  namespace: readonly string[],
  key: string,
  value: StoreValue,
  options: StorePutOptions | undefined,
): void {
  checkNamespace(namespace, 'put');
  if (typeof key !== 'string' || key === '') {
    throw new WeftError('INVALID_ARGUMENT', 'store.put: key must be a non-empty string');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new WeftError('INVALID_ARGUMENT', `store.put: value of "${key}" must be a JSON object`);
  }
  checkStoreValue(value, key);
  const ifAbsent = options?.ifAbsent;
  if (ifAbsent !== undefined && typeof ifAbsent !== 'boolean') {
    throw new WeftError('INVALID_ARGUMENT', `store.put: ifAbsent must be a boolean, got ${String(ifAbsent)}`);
  }
  const ttl = options?.ttlMs;
  if (ttl !== undefined && !(typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0)) {
    throw new WeftError('INVALID_ARGUMENT', `store.put: ttlMs must be a positive number, got ${ttl}`);
  }
}

/**
 * A namespace as one string (labels joined by `.`), the form SQL stores index and prefix-match.
 *
 * @example
 * ```ts
 * joinNamespace(['memories', 'u1']); // 'memories.u1'
 * ```
 */
export function joinNamespace(namespace: readonly string[]): string {
  return namespace.join('.');
}

/**
 * The labels of a joined namespace (inverse of {@link joinNamespace}).
 *
 * @example
 * ```ts
 * splitNamespace('memories.u1'); // ['memories', 'u1']
 * ```
 */
export function splitNamespace(joined: string): string[] {
  return joined === '' ? [] : joined.split('.');
}

/**
 * True when `namespace` is `prefix` or lies beneath it (label by label).
 *
 * @example
 * ```ts
 * namespaceStartsWith(['memories', 'u1'], ['memories']); // true
 * namespaceStartsWith(['memories', 'u10'], ['memories', 'u1']); // false
 * ```
 */
export function namespaceStartsWith(namespace: readonly string[], prefix: readonly string[]): boolean {
  if (prefix.length > namespace.length) return false;
  return prefix.every((label, index) => namespace[index] === label);
}

/**
 * The three bounds that select a namespace prefix from a SQL store's joined-namespace key: the prefix
 * itself, and the open range of namespaces beneath it (`prefix.` up to `prefix/`, `/` being the code
 * point after `.`). The empty prefix selects everything.
 *
 * @example
 * ```ts
 * namespaceRange(['memories']); // ['memories', 'memories.', 'memories/']
 * // WHERE ns = ? OR (ns > ? AND ns < ?)
 * ```
 */
export function namespaceRange(prefix: readonly string[]): [exact: string, above: string, below: string] {
  if (prefix.length === 0) return ['', '', '\u{10FFFF}'];
  const joined = joinNamespace(prefix);
  return [joined, `${joined}.`, `${joined}/`];
}
