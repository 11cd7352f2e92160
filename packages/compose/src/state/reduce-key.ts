import { ReducerError } from '../errors/reducer-error.js';
import { type AnyReducer, isReadyReducer } from './reducers.js';

/**
 * Applies one write to a key through its reducer. A key that holds no value (`undefined`: no schema
 * default and nothing written yet) takes the first write as it is, without calling the reducer, so a
 * reducer always receives a current value (`(a, b) => a.concat(b)` never sees `undefined`). The ready
 * reducers (`appendReducer`, `mergeReducer`, `sumReducer`) define their own empty value and are called.
 *
 * @throws ReducerError naming `node` and `key` when the reducer throws (the checkpoint is added by the
 *   caller that knows it, see {@link ReducerError}).
 */
export function reduceKey(
  reducer: AnyReducer,
  current: unknown,
  update: unknown,
  writer: { readonly node: string; readonly key: string; readonly checkpointId?: string | undefined },
): unknown {
  if (current === undefined && !isReadyReducer(reducer)) return update;
  try {
    return reducer(current, update);
  } catch (error) {
    throw new ReducerError({
      node: writer.node,
      key: writer.key,
      checkpointId: writer.checkpointId,
      cause: error,
    });
  }
}

/** A reducer error with the checkpoint it happened on top of (other errors pass through unchanged). */
export function atCheckpoint(error: unknown, checkpointId: string | undefined): unknown {
  if (!(error instanceof ReducerError) || checkpointId === undefined || error.checkpointId !== undefined)
    return error;
  return new ReducerError({ node: error.node, key: error.key, checkpointId, cause: error.cause });
}
