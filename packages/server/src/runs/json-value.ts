import type { JsonValue } from '@weft/compose';

/**
 * `value` as JSON, the way it goes over the wire: errors become `{ error, message }`, dates ISO strings,
 * maps and sets objects and arrays, bigints strings, `undefined` left out; a value that cannot be
 * serialised (a cycle) becomes its string form rather than failing the run.
 */
export function toJson(value: unknown): JsonValue {
  if (value === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(value, replacer)) as JsonValue;
  } catch {
    return String(value);
  }
}

function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { error: value.name, message: value.message };
  if (value instanceof Map) return Object.fromEntries(value);
  if (value instanceof Set) return [...value];
  if (typeof value === 'bigint') return value.toString();
  return value;
}
