/**
 * A reducer combines a key's current value with an update into the next value. It must be pure:
 * checkpoints store updates and replay them through the reducer to rebuild state. It always gets a
 * current value: the first write to a key that holds no value (no schema default) sets the key without
 * calling the reducer, so give a key a default when its update type is not its value type.
 *
 * @example
 * ```ts
 * const longest: Reducer<string> = (current, update) => (update.length > current.length ? update : current);
 * new StateGraph(z.object({ title: z.string().optional() }), { reducers: { title: longest } });
 * ```
 */
export type Reducer<TValue = unknown, TUpdate = TValue> = (current: TValue, update: TUpdate) => TValue;

/** Any reducer, with its types erased. */
// biome-ignore lint/suspicious/noExplicitAny: erased generic, used only as a constraint
export type AnyReducer = (current: any, update: any) => unknown;

/** The type of {@link appendReducer}: `T[]` keys take a `T` or a `T[]` as update. */
export interface AppendReducer {
  (current: readonly unknown[] | undefined, update: unknown): unknown[];
  readonly reducerKind: 'append';
}

/** The type of {@link mergeReducer}: object keys take a partial object as update. */
export interface MergeReducer {
  (current: object | undefined, update: object): object;
  readonly reducerKind: 'merge';
}

/** The type of {@link sumReducer}: number keys take a number to add. */
export interface SumReducer {
  (current: number | undefined, update: number): number;
  readonly reducerKind: 'sum';
}

/**
 * Appends an item, or every item of an array, to an array key (a missing value counts as `[]`).
 *
 * @example
 * ```ts
 * new StateGraph(z.object({ log: z.array(z.string()) }), { reducers: { log: appendReducer } });
 * ```
 */
export const appendReducer: AppendReducer = Object.assign(
  (current: readonly unknown[] | undefined, update: unknown): unknown[] => {
    const base = current ?? [];
    // Spread, not concat: concat takes V8's slow path on a frozen array (state is frozen in development).
    return Array.isArray(update) ? [...base, ...update] : [...base, update];
  },
  { reducerKind: 'append' as const },
);

/**
 * Shallow-merges an update object into an object key (a missing value counts as `{}`).
 *
 * @example
 * ```ts
 * new StateGraph(z.object({ scores: z.record(z.string(), z.number()) }), { reducers: { scores: mergeReducer } });
 * ```
 */
export const mergeReducer: MergeReducer = Object.assign(
  (current: object | undefined, update: object): object => ({ ...current, ...update }),
  { reducerKind: 'merge' as const },
);

/**
 * Adds a number to a number key (a missing value counts as `0`).
 *
 * @example
 * ```ts
 * new StateGraph(z.object({ total: z.number() }), { reducers: { total: sumReducer } });
 * ```
 */
export const sumReducer: SumReducer = Object.assign(
  (current: number | undefined, update: number): number => (current ?? 0) + update,
  { reducerKind: 'sum' as const },
);

/** True for {@link appendReducer}, {@link mergeReducer} and {@link sumReducer}, which define their own empty value. */
export function isReadyReducer(reducer: AnyReducer): boolean {
  return typeof (reducer as { reducerKind?: unknown }).reducerKind === 'string';
}

/** The update type a reducer accepts for a key whose value type is `TValue`. */
export type InferReducerUpdate<TReducer, TValue> = TReducer extends AppendReducer
  ? TValue extends readonly (infer TItem)[]
    ? TItem | readonly TItem[]
    : never
  : TReducer extends MergeReducer
    ? Partial<TValue>
    : TReducer extends SumReducer
      ? number
      : TReducer extends (current: never, update: infer TUpdate) => unknown
        ? TUpdate
        : TValue;
