/**
 * Moves a thread's state from one state version of a graph to the next: `migrations[v]` takes the state
 * as version `v` stored it and returns it as version `v + 1` holds it. Pure and deterministic (it may run
 * again each time an old checkpoint is read); it may be async.
 *
 * @example
 * ```ts
 * // v1 stored `name`; v2 splits it into `first` and `last`.
 * const toV2: StateMigration = (state) => {
 *   const [first = '', last = ''] = String(state.name ?? '').split(' ');
 *   const { name: _dropped, ...rest } = state;
 *   return { ...rest, first, last };
 * };
 * ```
 */
export type StateMigration = (
  state: Readonly<Record<string, unknown>>,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** A graph's state versions: the current one and how to reach it from each older one. */
export interface StateVersioning {
  /** The version this graph's checkpoints are written at (1 unless `compile({ stateVersion })`). */
  readonly version: number;
  /** `v → v + 1` migrations, by `v`. */
  readonly migrations: ReadonlyMap<number, StateMigration>;
  /** Old node name → the node that takes its place, for checkpoints that name nodes this graph lost. */
  readonly renamedNodes?: ReadonlyMap<string, string>;
}

/** The version of graphs that declare none, and of checkpoints written before versions were recorded. */
export const FIRST_STATE_VERSION = 1;
