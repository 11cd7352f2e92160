/**
 * Decoding half of the checkpoint serializer (see `serializer.ts` for the format). Internal: not exported
 * from the package. Revives tagged values in place in the freshly parsed JSON tree (nobody else holds it).
 */
import { setOwn, TAG, Unserializable } from './tagged-json-encode.js';

type ErrorConstructorLike = new (message?: string, options?: { cause?: unknown }) => Error;

const BUILTIN_ERRORS: Readonly<Record<string, ErrorConstructorLike>> = {
  Error,
  TypeError,
  RangeError,
  SyntaxError,
  ReferenceError,
  EvalError,
  URIError,
};

/**
 * Replaces every tagged value inside `value` (in place where possible) and returns the result.
 *
 * @example
 * ```ts
 * reviveValue(JSON.parse('{"at":{"$weft":"Date","v":"1970-01-01T00:00:00.000Z"}}')); // { at: Date(0) }
 * ```
 */
export function reviveValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (typeof item === 'object' && item !== null) value[index] = reviveValue(item);
    }
    return value;
  }
  const object = value as Record<string, unknown>;
  if (Object.hasOwn(object, TAG)) return reviveTagged(object);
  reviveProperties(object);
  return object;
}

function reviveProperties(object: Record<string, unknown>): void {
  for (const key in object) {
    const item = object[key];
    if (typeof item === 'object' && item !== null) {
      const revived = reviveValue(item);
      if (revived !== item) setOwn(object, key, revived);
    }
  }
}

function reviveTagged(tagged: Record<string, unknown>): unknown {
  const tag = tagged[TAG];
  const body = tagged.v;
  switch (tag) {
    case 'undefined':
      return undefined;
    case 'Number':
      return reviveNumber(body);
    case 'BigInt':
      return reviveBigInt(expectString(body, tag));
    case 'Date':
      return reviveDate(body);
    case 'Bytes':
      return new Uint8Array(Buffer.from(expectString(body, tag), 'base64'));
    case 'Map':
      return reviveMap(expectArray(body, tag));
    case 'Set':
      return new Set(reviveValue(expectArray(body, tag)) as unknown[]);
    case 'Error':
      return reviveError(expectObject(body, tag));
    case 'Object': {
      const object = expectObject(body, tag);
      reviveProperties(object);
      return object;
    }
    default:
      throw new Unserializable(`unknown tag ${JSON.stringify(tag)}; the text was not written by serialize()`);
  }
}

/** The bodies `serialize` writes for numbers JSON cannot hold; anything else was not written by it. */
const SPECIAL_NUMBERS: Readonly<Record<string, number>> = {
  NaN: Number.NaN,
  Infinity: Number.POSITIVE_INFINITY,
  '-Infinity': Number.NEGATIVE_INFINITY,
  '-0': -0,
};

function reviveNumber(body: unknown): number {
  if (typeof body !== 'string' || !Object.hasOwn(SPECIAL_NUMBERS, body)) throw malformed('Number');
  return SPECIAL_NUMBERS[body] as number;
}

function reviveBigInt(body: string): bigint {
  if (!/^-?\d+$/.test(body)) throw malformed('BigInt');
  return BigInt(body);
}

/** `null` is an invalid date as written; a string must be a date (`serialize` writes ISO-8601). */
function reviveDate(body: unknown): Date {
  if (body === null) return new Date(Number.NaN);
  const date = new Date(expectString(body, 'Date'));
  if (Number.isNaN(date.getTime())) throw malformed('Date');
  return date;
}

function reviveMap(entries: unknown[]): Map<unknown, unknown> {
  const map = new Map<unknown, unknown>();
  for (const entry of entries) {
    const pair = expectArray(entry, 'Map');
    map.set(reviveValue(pair[0]), reviveValue(pair[1]));
  }
  return map;
}

function reviveError(body: Record<string, unknown>): Error {
  reviveProperties(body);
  const name = String(body.name);
  const Constructor = BUILTIN_ERRORS[name] ?? Error;
  const message = String(body.message);
  const error = Object.hasOwn(body, 'cause')
    ? new Constructor(message, { cause: body.cause })
    : new Constructor(message);
  if (error.name !== name) error.name = name;
  if (typeof body.stack === 'string') {
    Object.defineProperty(error, 'stack', { value: body.stack, writable: true, configurable: true });
  }
  if (Object.hasOwn(body, 'code')) (error as Error & { code?: unknown }).code = body.code;
  return error;
}

function expectString(body: unknown, tag: string): string {
  if (typeof body !== 'string') throw malformed(tag);
  return body;
}

function expectArray(body: unknown, tag: string): unknown[] {
  if (!Array.isArray(body)) throw malformed(tag);
  return body;
}

function expectObject(body: unknown, tag: string): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw malformed(tag);
  return body as Record<string, unknown>;
}

function malformed(tag: string): Unserializable {
  return new Unserializable(`malformed ${tag} value; the text was not written by serialize()`);
}
