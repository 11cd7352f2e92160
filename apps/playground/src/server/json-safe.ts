import { type RunEvent, redactSecrets } from '@weft/compose';
import type { ErrorInfo, Json, WireRunEvent } from '../shared/wire.ts';

/**
 * Converts any value into JSON the API can send: errors become `{ name, message, code }`, dates ISO
 * strings, maps objects, sets arrays, bigints strings; functions and `undefined` are dropped, cycles
 * become `"[Circular]"` and anything deeper than 40 levels `"[…]"`.
 *
 * @example
 * ```ts
 * toJson({ when: new Date(0), tags: new Set(['a']) }); // { when: '1970-01-01T00:00:00.000Z', tags: ['a'] }
 * ```
 */
export function toJson(value: unknown): Json {
  return convert(value, new Set(), 0) ?? null;
}

/**
 * A run event as the API sends it: {@link toJson} turns each field into what `WireRunEvent` says (errors
 * become `{ name, message, code }`, values JSON) and keeps `type`, so the union stays discriminated.
 *
 * @example
 * ```ts
 * run.push(wireEvent(event)); // { type: 'node-error', error: { name: 'NodeError', message: … }, … }
 * ```
 */
export function wireEvent(event: RunEvent): WireRunEvent {
  return toJson(event) as unknown as WireRunEvent;
}

/**
 * Describes an error for the API.
 *
 * @example
 * ```ts
 * errorInfo(new WeftError('ABORTED', 'stopped')); // { name: 'WeftError', message: 'stopped', code: 'ABORTED' }
 * ```
 */
export function errorInfo(error: unknown): ErrorInfo {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return {
      name: error.name,
      message: redactSecrets(error.message),
      ...(typeof code === 'string' ? { code } : {}),
    };
  }
  return {
    name: 'Error',
    message: redactSecrets(typeof error === 'string' ? error : JSON.stringify(toJson(error))),
  };
}

function convert(value: unknown, seen: Set<object>, depth: number): Json | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'bigint':
      return value.toString();
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    default:
      break;
  }
  if (value === null) return null;
  if (depth > 40) return '[…]';
  const object = value as object;
  if (seen.has(object)) return '[Circular]';
  if (object instanceof Error) return { ...errorInfo(object) };
  if (object instanceof Date) return Number.isNaN(object.getTime()) ? null : object.toISOString();
  seen.add(object);
  try {
    return convertObject(object, seen, depth);
  } finally {
    seen.delete(object);
  }
}

function convertObject(object: object, seen: Set<object>, depth: number): Json {
  if (Array.isArray(object)) return object.map((item) => convert(item, seen, depth + 1) ?? null);
  if (object instanceof Map) {
    const out: Record<string, Json> = {};
    for (const [key, item] of object) {
      const converted = convert(item, seen, depth + 1);
      if (converted !== undefined) out[String(key)] = converted;
    }
    return out;
  }
  if (object instanceof Set) return [...object].map((item) => convert(item, seen, depth + 1) ?? null);
  if (ArrayBuffer.isView(object)) return `[${object.byteLength} bytes]`;
  const out: Record<string, Json> = {};
  for (const [key, item] of Object.entries(object)) {
    const converted = convert(item, seen, depth + 1);
    if (converted !== undefined) out[key] = converted;
  }
  return out;
}
