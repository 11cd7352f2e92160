import type { StoreValue } from './store.js';
import { StoreValueError } from './store-value-error.js';

/** A property name as a path segment: `.name` when it is a plain identifier, else `["a.b"]`. */
function segment(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

/** The path as shown in errors: without the leading `$.` of the document root. */
function shown(path: string): string {
  return path === '$' ? '$' : path.startsWith('$.') ? path.slice(2) : path.slice(1);
}

/** Why a value that is not an array or plain object is not JSON, or `undefined` when it is a JSON leaf. */
function leafProblem(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `the number ${value} (JSON has no NaN or Infinity)`;
    case 'bigint':
      return `a bigint (${value}n); store it as a string or a number`;
    case 'undefined':
      return 'undefined (JSON would write null here)';
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    default:
      return value === null ? undefined : 'an object';
  }
}

/** Why an object is not a plain JSON object or array, or `undefined` when it is one. */
function objectProblem(value: object): string | undefined {
  if (Array.isArray(value)) return undefined;
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto === Object.prototype || proto === null) {
    return Object.getOwnPropertySymbols(value).length > 0 ? 'an object with symbol keys' : undefined;
  }
  const kind =
    (value as { constructor?: { name?: string } }).constructor?.name || 'an object with a prototype';
  if (value instanceof Date) return 'a Date; store it as an ISO string (toISOString()) or a number';
  if (value instanceof Map || value instanceof Set)
    return `a ${kind}; store it as an array or a plain object`;
  return `a ${kind} instance (only plain objects and arrays are JSON)`;
}

/**
 * Checks that a store document is JSON — what every store keeps and gives back unchanged: strings,
 * finite numbers, booleans, `null`, arrays and plain objects (a `null` prototype is fine), nested to any
 * depth, without cycles. Properties set to `undefined` are allowed and left out (as `JSON.stringify`
 * does); everything else — `Date`, `Map`, `Set`, class instances, typed arrays, `bigint`, `NaN`,
 * `Infinity`, functions, symbols, `undefined` in an array, a cycle — is refused.
 *
 * @throws {StoreValueError} `INVALID_ARGUMENT` naming the key and the path of the first value at fault.
 * @example
 * ```ts
 * checkStoreValue({ text: 'hi', tags: ['a'], meta: { n: 1 } }, 'note'); // fine
 * checkStoreValue({ meta: { at: new Date() } } as never, 'note'); // throws: not JSON at meta.at: a Date…
 * ```
 */
export function checkStoreValue(value: StoreValue, key: string): void {
  const ancestors = new Set<object>();
  const visit = (current: unknown, path: string): void => {
    if (typeof current !== 'object' || current === null) {
      const problem = leafProblem(current);
      if (problem) throw new StoreValueError(key, shown(path), problem);
      return;
    }
    const problem = objectProblem(current);
    if (problem) throw new StoreValueError(key, shown(path), problem);
    if (ancestors.has(current)) throw new StoreValueError(key, shown(path), 'a cycle (it contains itself)');
    ancestors.add(current);
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++) {
        if (!(index in current))
          throw new StoreValueError(key, shown(`${path}[${index}]`), 'a hole in the array');
        visit(current[index], `${path}[${index}]`);
      }
    } else {
      for (const [name, child] of Object.entries(current)) {
        if (child !== undefined) visit(child, `${path}${segment(name)}`);
      }
    }
    ancestors.delete(current);
  };
  visit(value, '$');
}

/**
 * The document as every store keeps it: its JSON form read back (properties set to `undefined` left
 * out, `-0` as `0`). Check it with {@link checkStoreValue} first.
 *
 * @example
 * ```ts
 * storedValue({ a: 1, b: undefined }); // { a: 1 }
 * ```
 */
export function storedValue(value: StoreValue): StoreValue {
  return JSON.parse(JSON.stringify(value)) as StoreValue;
}
