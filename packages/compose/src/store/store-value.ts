import type { StoreValue } from './store.js';
import { StoreValueError } from './store-value-error.js';

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
 * checkStoreValue({ meta: { at: new Date() } } as never, 'note'); // throws: not JSON at meta.at: a Date
 * ```
 */
export function checkStoreValue(value: StoreValue, key: string): void {
  const ancestors = new Set<object>();
  const visit = (current: unknown, path: string): void => {
    const fail = (what: string): never => {
      throw new StoreValueError(key, path || '$', what);
    };
    const type = typeof current;
    if (type !== 'object' || current === null) {
      if (
        type === 'number'
          ? !Number.isFinite(current)
          : !(current === null || type === 'string' || type === 'boolean')
      )
        fail(type === 'number' ? String(current) : `a ${type}`);
      return;
    }
    const object = current as object;
    const proto = Object.getPrototypeOf(object) as object | null;
    if (!Array.isArray(object) && proto !== Object.prototype && proto !== null)
      fail(`a ${(object as { constructor?: { name?: string } }).constructor?.name || 'class instance'}`);
    if (Object.getOwnPropertySymbols(object).length > 0) fail('symbol keys');
    if (ancestors.has(object)) fail('a cycle');
    ancestors.add(object);
    if (Array.isArray(object)) {
      for (let index = 0; index < object.length; index++) {
        if (!(index in object)) fail(`a hole at [${index}]`);
        visit(object[index], `${path}[${index}]`);
      }
    } else {
      for (const [name, child] of Object.entries(object)) {
        // `.name` for a plain identifier, else `["a.b"]`; a property set to undefined is left out
        const at = /^[A-Za-z_$][\w$]*$/.test(name)
          ? path
            ? `${path}.${name}`
            : name
          : `${path}[${JSON.stringify(name)}]`;
        if (child !== undefined) visit(child, at);
      }
    }
    ancestors.delete(object);
  };
  visit(value, '');
}

/**
 * The document as every store keeps it: its JSON form read back (properties set to `undefined` left
 * out, `-0` as `0`). Check it with {@link checkStoreValue} first.
 *
 * @example
 * ```ts
 * const draft = { a: 1, b: undefined as unknown as string };
 * storedValue(draft); // { a: 1 }
 * ```
 */
export function storedValue(value: StoreValue): StoreValue {
  return JSON.parse(JSON.stringify(value)) as StoreValue;
}
