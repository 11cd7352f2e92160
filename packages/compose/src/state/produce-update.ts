/**
 * Draft-style updates (`ctx.produce`): a node writes mutations against an immer draft of the state it
 * received, and gets back an ordinary update — the keys the recipe changed, each expressed the way its
 * reducer takes updates — which it returns like any other. The state itself is never changed.
 */
import { type Draft, produce } from 'immer';
import { WeftError } from '../errors/weft-error.js';
import type { AnyReducer } from './reducers.js';

/** Where a draft update is made: the node, and the reducers of the state it updates. */
export interface ProduceScope {
  readonly node: string;
  readonly reducers: Readonly<Record<string, AnyReducer | undefined>>;
}

/**
 * Runs `recipe` on a draft of `state` and returns the update that makes the same change through the
 * state's reducers: a key without a reducer gets its new value; an `appendReducer` key the items pushed
 * onto its end; a `sumReducer` key the difference; a `mergeReducer` key the fields that changed.
 *
 * @throws {WeftError} code `INVALID_UPDATE` naming the node and key when the change cannot be said as an
 * update: a key deleted, items of an append key changed or removed, fields of a merge key deleted, any
 * change to a key with a custom reducer (return its update yourself).
 * @example
 * ```ts
 * const update = produceUpdate({ items: [1], count: 1 }, (draft) => {
 *   draft.items.push(2);
 *   draft.count = 5;
 * }, { node: 'add', reducers: { items: appendReducer } });
 * // { items: [2], count: 5 }
 * ```
 */
export function produceUpdate<T extends object>(
  state: T,
  recipe: (draft: Draft<T>) => void,
  scope: ProduceScope,
): Partial<T> {
  const next = produce(state, (draft) => {
    recipe(draft);
  }) as Record<string, unknown>;
  const before = state as Record<string, unknown>;
  const update: Record<string, unknown> = {};
  for (const key of Object.keys(before)) {
    if (!Object.hasOwn(next, key))
      throw unsayable(scope, key, 'the recipe deleted it; state keys cannot be deleted');
  }
  for (const key of Object.keys(next)) {
    if (next[key] === before[key]) continue;
    update[key] = updateFor(scope, key, before[key], next[key]);
  }
  return update as Partial<T>;
}

function updateFor(scope: ProduceScope, key: string, before: unknown, after: unknown): unknown {
  const reducer = scope.reducers[key] as (AnyReducer & { reducerKind?: string }) | undefined;
  if (reducer === undefined) return after;
  switch (reducer.reducerKind) {
    case 'append':
      return appended(scope, key, before, after);
    case 'sum':
      if (typeof after !== 'number') throw unsayable(scope, key, 'a sum key must stay a number');
      return after - ((before as number | undefined) ?? 0);
    case 'merge':
      return mergedFields(scope, key, before, after);
    default:
      throw unsayable(scope, key, 'it has a custom reducer; return its update instead of changing the draft');
  }
}

function appended(scope: ProduceScope, key: string, before: unknown, after: unknown): unknown[] {
  const old = (before as readonly unknown[] | undefined) ?? [];
  if (!Array.isArray(after) || after.length < old.length || old.some((item, i) => after[i] !== item))
    throw unsayable(
      scope,
      key,
      'its append reducer only takes new items: push onto the list, do not change or remove items',
    );
  return after.slice(old.length);
}

function mergedFields(scope: ProduceScope, key: string, before: unknown, after: unknown): object {
  const old = (before as Record<string, unknown> | undefined) ?? {};
  if (typeof after !== 'object' || after === null)
    throw unsayable(scope, key, 'a merge key must stay an object');
  const fields = after as Record<string, unknown>;
  const changed: Record<string, unknown> = {};
  for (const field of Object.keys(old))
    if (!Object.hasOwn(fields, field))
      throw unsayable(scope, key, `its merge reducer cannot delete field "${field}"`);
  for (const field of Object.keys(fields)) if (fields[field] !== old[field]) changed[field] = fields[field];
  return changed;
}

function unsayable(scope: ProduceScope, key: string, reason: string): WeftError {
  return new WeftError(
    'INVALID_UPDATE',
    `ctx.produce in node "${scope.node}" changed state key "${key}" in a way no update can say: ${reason}`,
  );
}
