import type { JsonValue } from './checkpointer.js';

/**
 * Deep equality of two JSON values: objects compare by keys regardless of order, arrays by position,
 * numbers by value. `undefined` (a missing key) equals nothing, not even `null`.
 *
 * @example
 * ```ts
 * jsonEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }); // true
 * jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 }); // true
 * ```
 */
export function jsonEqual(left: JsonValue | undefined, right: JsonValue | undefined): boolean {
  if (left === right) return left !== undefined;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    for (let index = 0; index < left.length; index++) {
      if (!jsonEqual(left[index], right[index])) return false;
    }
    return true;
  }
  const leftKeys = Object.keys(left);
  if (leftKeys.length !== Object.keys(right).length) return false;
  for (const key of leftKeys) {
    if (!Object.hasOwn(right, key) || !jsonEqual(left[key], right[key])) return false;
  }
  return true;
}

/**
 * The `list({ filter })` rule every store follows: each top-level key of `filter` must be present in
 * `metadata` with a JSON-equal value (nested objects and arrays compare in full, not as a subset).
 * Stores that cannot express this in their query language filter rows with this function.
 *
 * @example
 * ```ts
 * metadataMatches({ source: 'loop', tags: ['a'] }, { tags: ['a'] }); // true
 * metadataMatches({ user: { id: 1, role: 'x' } }, { user: { id: 1 } }); // false: not a subset match
 * ```
 */
export function metadataMatches(
  metadata: Readonly<Record<string, JsonValue>>,
  filter: Readonly<Record<string, JsonValue>> | undefined,
): boolean {
  if (filter === undefined) return true;
  for (const key of Object.keys(filter)) {
    if (!Object.hasOwn(metadata, key) || !jsonEqual(metadata[key], filter[key])) return false;
  }
  return true;
}
