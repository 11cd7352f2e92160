import type { JsonValue } from '../checkpoint/checkpointer.js';
import { jsonEqual } from '../checkpoint/metadata-filter.js';
import { WeftError } from '../errors/weft-error.js';
import type { StoreFilter, StoreValue } from './store.js';

const OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in']);

/**
 * The value at a dotted path of a document (`profile.city`), or `undefined`.
 *
 * @example
 * ```ts
 * valueAtPath({ profile: { city: 'Oslo' } }, 'profile.city'); // 'Oslo'
 * ```
 */
export function valueAtPath(value: StoreValue, path: string): JsonValue | undefined {
  let current: JsonValue | undefined = value as JsonValue;
  for (const part of path.split('.')) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = Object.hasOwn(current, part) ? current[part] : undefined;
  }
  return current;
}

/**
 * Checks a search filter's operators before a store runs the search.
 *
 * @throws WeftError `INVALID_ARGUMENT` naming the field with an unknown operator or a `$in` without an array.
 * @example
 * ```ts
 * checkFilter({ score: { $gt: 1 } });
 * ```
 */
export function checkFilter(filter: StoreFilter | undefined): void {
  for (const [field, condition] of Object.entries(filter ?? {})) {
    if (!isOperatorObject(condition)) continue;
    for (const [operator, operand] of Object.entries(condition)) {
      if (!OPERATORS.has(operator)) {
        throw new WeftError(
          'INVALID_ARGUMENT',
          `store.search: filter on "${field}" uses unknown operator "${operator}" (use ${[...OPERATORS].join(', ')})`,
        );
      }
      if (operator === '$in' && !Array.isArray(operand)) {
        throw new WeftError('INVALID_ARGUMENT', `store.search: filter on "${field}": $in needs an array`);
      }
    }
  }
}

/**
 * True when a document passes every condition of `filter` (see `StoreFilter`).
 *
 * @example
 * ```ts
 * matchesFilter({ kind: 'fact', score: 3 }, { kind: 'fact', score: { $gt: 2 } }); // true
 * ```
 */
export function matchesFilter(value: StoreValue, filter: StoreFilter | undefined): boolean {
  if (filter === undefined) return true;
  for (const [field, condition] of Object.entries(filter)) {
    const actual = valueAtPath(value, field);
    if (isOperatorObject(condition)) {
      for (const [operator, operand] of Object.entries(condition)) {
        if (!compare(actual, operator, operand)) return false;
      }
    } else if (!jsonEqual(actual, condition)) return false;
  }
  return true;
}

function isOperatorObject(value: JsonValue): value is Record<string, JsonValue> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => key.startsWith('$'));
}

function compare(actual: JsonValue | undefined, operator: string, operand: JsonValue | undefined): boolean {
  switch (operator) {
    case '$eq':
      return jsonEqual(actual, operand);
    case '$ne':
      return !jsonEqual(actual, operand);
    case '$in':
      return Array.isArray(operand) && operand.some((candidate) => jsonEqual(actual, candidate));
    default:
      return ordered(actual, operator, operand);
  }
}

function ordered(actual: JsonValue | undefined, operator: string, operand: JsonValue | undefined): boolean {
  const comparable =
    (typeof actual === 'number' && typeof operand === 'number') ||
    (typeof actual === 'string' && typeof operand === 'string');
  if (!comparable) return false;
  const a = actual as number | string;
  const b = operand as number | string;
  if (operator === '$gt') return a > b;
  if (operator === '$gte') return a >= b;
  if (operator === '$lt') return a < b;
  return a <= b;
}
