import type { Json } from '../../../src/shared/wire.ts';

/** One difference between two states. */
export interface Change {
  /** Where, e.g. `log[3]` or `user.name` (empty for the whole value). */
  readonly path: string;
  readonly kind: 'added' | 'removed' | 'changed';
  readonly before?: Json;
  readonly after?: Json;
}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
}

/**
 * The differences between two JSON values, deep: object keys and array items are compared one by one
 * (so an append to a list shows as the added items).
 *
 * @example
 * ```ts
 * diffJson({ count: 1, log: ['a'] }, { count: 2, log: ['a', 'b'] });
 * // [{ path: 'count', kind: 'changed', before: 1, after: 2 }, { path: 'log[1]', kind: 'added', after: 'b' }]
 * ```
 */
export function diffJson(before: Json | undefined, after: Json | undefined, path = ''): Change[] {
  if (before === undefined && after === undefined) return [];
  if (before === undefined) return [{ path, kind: 'added', after: after as Json }];
  if (after === undefined) return [{ path, kind: 'removed', before }];
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => diffJson(before[key], after[key], join(path, key)));
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const length = Math.max(before.length, after.length);
    return Array.from({ length }, (_, i) => diffJson(before[i], after[i], join(path, i))).flat();
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path, kind: 'changed', before, after }];
}

/**
 * The top-level keys whose values differ (what a fork should write: untouched keys are left alone,
 * so reducers do not apply them twice).
 *
 * @example
 * ```ts
 * changedKeys({ count: 1, log: ['a'] }, { count: 5, log: ['a'] }); // { count: 5 }
 * ```
 */
export function changedKeys(
  original: { readonly [key: string]: Json },
  edited: { readonly [key: string]: Json },
): Record<string, Json> {
  const changed: Record<string, Json> = {};
  for (const [key, value] of Object.entries(edited)) {
    if (JSON.stringify(original[key]) !== JSON.stringify(value)) changed[key] = value;
  }
  return changed;
}
