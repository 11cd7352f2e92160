import type { JsonValue } from '../message/message.js';

/**
 * Converts a value to plain JSON (as `JSON.stringify` would see it); throws on cycles and BigInt.
 *
 * @example
 * ```ts
 * toJsonValue({ at: new Date(0) }); // { at: '1970-01-01T00:00:00.000Z' }
 * ```
 */
export function toJsonValue(value: unknown): JsonValue {
  const text = JSON.stringify(value);
  return text === undefined ? null : (JSON.parse(text) as JsonValue);
}

/**
 * Describes a thrown value in one line, whatever it is.
 *
 * @example
 * ```ts
 * describeError(new Error('boom')); // 'boom'
 * ```
 */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
