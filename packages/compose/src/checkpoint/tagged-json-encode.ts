/**
 * Encoding half of the checkpoint serializer (see `serializer.ts` for the format). Internal: not exported
 * from the package.
 *
 * Copy-on-write: a plain-JSON value comes back as the very same reference, so `JSON.stringify` runs on the
 * caller's data and the only extra cost on the hot path is one walk. Containers are copied only when a
 * descendant needed a tag. No closures are created per value; error paths are built only when a value fails.
 */

/**
 * The key that marks a tagged value.
 *
 * @example
 * ```ts
 * JSON.stringify(encodeValue(new Date(0), [])); // '{"$weft":"Date","v":"1970-01-01T00:00:00.000Z"}'
 * ```
 */
export const TAG = '$weft';

const UNDEFINED = Object.freeze({ $weft: 'undefined' });
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const ARRAY_PROTOTYPE = Array.prototype;
const OBJECT_PROTOTYPE = Object.prototype;

/**
 * Thrown inside the walk when a value cannot be encoded; each container on the way out adds its segment.
 * Converted to a `SerializationError` by the public functions.
 *
 * @example
 * ```ts
 * try {
 *   encodeValue({ a: [() => 1] }, []);
 * } catch (error) {
 *   if (error instanceof Unserializable) error.path(); // 'a[0]'
 * }
 * ```
 */
export class Unserializable extends Error {
  /** Path segments, innermost first. */
  readonly segments: string[] = [];

  constructor(readonly reason: string) {
    super(reason);
  }

  /** The path from the root, e.g. `messages[3].meta` (`''` for the root itself). */
  path(): string {
    let path = '';
    for (let index = this.segments.length - 1; index >= 0; index--) path += this.segments[index];
    return path.startsWith('.') ? path.slice(1) : path;
  }
}

/**
 * Formats an object key as a path segment.
 *
 * @example
 * ```ts
 * propertySegment('meta'); // '.meta'
 * propertySegment('odd key'); // '["odd key"]'
 * ```
 */
export function propertySegment(key: string): string {
  return IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

function rethrowWith(error: unknown, segment: string): never {
  if (error instanceof Unserializable) error.segments.push(segment);
  throw error;
}

/**
 * Sets an own property, also for the key `__proto__` (plain assignment would change the prototype).
 *
 * @example
 * ```ts
 * const target: Record<string, unknown> = {};
 * setOwn(target, '__proto__', 1); // Object.keys(target) → ['__proto__']
 * ```
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/**
 * Encodes one value into JSON-ready data; returns `value` itself when it is already plain JSON.
 * `ancestors` holds the containers being walked (cycle detection).
 *
 * @example
 * ```ts
 * const plain = { a: 1 };
 * encodeValue(plain, []) === plain; // true: nothing to tag, nothing copied
 * encodeValue({ a: undefined }, []); // { a: { $weft: 'undefined' } }
 * ```
 */
export function encodeValue(value: unknown, ancestors: object[]): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return encodeNumber(value);
    case 'object':
      return value === null ? null : encodeObject(value, ancestors);
    case 'undefined':
      return UNDEFINED;
    case 'bigint':
      return { $weft: 'BigInt', v: value.toString() };
    case 'function':
      throw new Unserializable(
        `function ${value.name || '(anonymous)'} is not serializable; store plain data instead`,
      );
    default:
      throw new Unserializable(`${String(value)} is not serializable; use a string instead of a symbol`);
  }
}

function encodeNumber(value: number): unknown {
  if (Number.isFinite(value)) {
    return value === 0 && 1 / value < 0 ? { $weft: 'Number', v: '-0' } : value;
  }
  return { $weft: 'Number', v: String(value) };
}

function enter(container: object, ancestors: object[]): void {
  if (ancestors.includes(container)) {
    throw new Unserializable(
      'circular reference (the value contains itself) is not serializable; break the cycle',
    );
  }
  ancestors.push(container);
}

function encodeObject(value: object, ancestors: object[]): unknown {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === ARRAY_PROTOTYPE) return encodeArray(value as unknown[], ancestors);
  if (proto === OBJECT_PROTOTYPE || proto === null) {
    return encodePlainObject(value as Record<string, unknown>, ancestors);
  }
  if (value instanceof Date) {
    const time = value.getTime();
    return { $weft: 'Date', v: Number.isNaN(time) ? null : value.toISOString() };
  }
  if (value instanceof Map) return encodeMap(value, ancestors);
  if (value instanceof Set) return encodeSet(value, ancestors);
  if (value instanceof Uint8Array) return { $weft: 'Bytes', v: toBase64(value) };
  if (value instanceof Error) return encodeError(value, ancestors);
  const name = (proto as { constructor?: { name?: unknown } }).constructor?.name;
  throw new Unserializable(
    `class ${typeof name === 'string' && name !== '' ? name : '(anonymous)'} is not serializable; convert it to plain data`,
  );
}

function encodeArray(array: unknown[], ancestors: object[]): unknown[] {
  enter(array, ancestors);
  let copy: unknown[] | undefined;
  let index = 0;
  try {
    for (; index < array.length; index++) {
      const item = array[index];
      const encoded = encodeValue(item, ancestors);
      if (copy !== undefined) copy.push(encoded);
      else if (encoded !== item) {
        copy = array.slice(0, index);
        copy.push(encoded);
      }
    }
  } catch (error) {
    rethrowWith(error, `[${index}]`);
  }
  ancestors.pop();
  return copy ?? array;
}

/** Encodes the own enumerable string-keyed properties; objects that use the tag key get escaped. */
function encodePlainObject(object: Record<string, unknown>, ancestors: object[]): unknown {
  enter(object, ancestors);
  const keys = Object.keys(object);
  let copy: Record<string, unknown> | undefined;
  let index = 0;
  try {
    for (; index < keys.length; index++) {
      const key = keys[index]!;
      const item = object[key];
      const encoded = encodeValue(item, ancestors);
      if (copy === undefined && encoded !== item) copy = copyKeys(object, keys, index);
      if (copy !== undefined) setOwn(copy, key, encoded);
    }
  } catch (error) {
    rethrowWith(error, propertySegment(keys[index]!));
  }
  ancestors.pop();
  const result = copy ?? object;
  return Object.hasOwn(object, TAG) ? { $weft: 'Object', v: result } : result;
}

function copyKeys(object: Record<string, unknown>, keys: string[], end: number): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (let index = 0; index < end; index++) setOwn(copy, keys[index]!, object[keys[index]!]);
  return copy;
}

function describeKey(key: unknown, index: number): string {
  if (typeof key === 'string') return JSON.stringify(key);
  if (typeof key === 'number' || typeof key === 'boolean' || key == null) return String(key);
  return `<key ${index}>`;
}

function encodeMap(map: Map<unknown, unknown>, ancestors: object[]): unknown {
  enter(map, ancestors);
  const entries: unknown[] = [];
  let index = 0;
  for (const [key, item] of map) {
    let segment = `.keys()[${index}]`;
    try {
      const encodedKey = encodeValue(key, ancestors);
      segment = `.get(${describeKey(key, index)})`;
      entries.push([encodedKey, encodeValue(item, ancestors)]);
    } catch (error) {
      rethrowWith(error, segment);
    }
    index++;
  }
  ancestors.pop();
  return { $weft: 'Map', v: entries };
}

function encodeSet(set: Set<unknown>, ancestors: object[]): unknown {
  enter(set, ancestors);
  const items: unknown[] = [];
  for (const item of set) {
    try {
      items.push(encodeValue(item, ancestors));
    } catch (error) {
      rethrowWith(error, `.values()[${items.length}]`);
    }
  }
  ancestors.pop();
  return { $weft: 'Set', v: items };
}

function encodeError(error: Error, ancestors: object[]): unknown {
  enter(error, ancestors);
  const fields: Record<string, unknown> = { name: error.name, message: error.message };
  if (typeof error.stack === 'string') fields.stack = error.stack;
  if (Object.hasOwn(error, 'cause')) fields.cause = error.cause;
  if (Object.hasOwn(error, 'code')) fields.code = (error as { code?: unknown }).code;
  const encoded = encodePlainObject(fields, ancestors);
  ancestors.pop();
  return { $weft: 'Error', v: encoded };
}

function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
