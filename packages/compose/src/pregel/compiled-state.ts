import type { AnyReducer } from '../state/reducers.js';
import type { KeyCheck } from '../state/update-checks.js';

/** The state channels of a state graph. */
export interface CompiledState {
  readonly keys: readonly string[];
  readonly keySet: ReadonlySet<string>;
  readonly reducers: Readonly<Record<string, AnyReducer | undefined>>;
  /** Initial values (schema defaults) of keys that have them. */
  readonly defaults: Readonly<Record<string, unknown>>;
  /** Per key, the check of a node's write against the schema; `undefined` with `checkUpdates: false`. */
  readonly checks: Readonly<Record<string, KeyCheck | undefined>> | undefined;
  /** The schema's rules on the whole object, checked on the state a step's writes made; `undefined` for none. */
  readonly rules?: KeyCheck | undefined;
}
