import type { CompiledState } from '../pregel/compiled-state.js';
import { reduceKey } from '../state/reduce-key.js';

/** What a state subgraph's run left: its writes in order and its final values. */
export interface SubgraphRunResult {
  readonly writes: ReadonlyArray<readonly [key: string, value: unknown]>;
  readonly values: Readonly<Record<string, unknown>>;
}

/**
 * The one update a state subgraph hands the state graph it is a node of: the parent's keys the subgraph
 * wrote, and nothing else (keys only the subgraph has stay inside it). A key the parent reduces gets
 * the subgraph's writes to it folded through the subgraph's own reducer — what the subgraph added, so
 * the parent's reducer does not add the input it passed down a second time; a last-value key gets the
 * subgraph's final value (its reducer result, not its last raw write). For instance, with a parent
 * `{ log: append, text }` and a subgraph `{ log: append, text: concat, scratch }` that, on input
 * `{ log: ['p'], text: 'p' }`, wrote log 's1', text '+x', scratch 'n', log 's2', text '+y', the update is
 * `{ log: ['s1', 's2'], text: 'p+x+y' }`.
 */
export function subgraphUpdate(
  child: CompiledState,
  parent: CompiledState,
  result: SubgraphRunResult,
  node: string,
): Record<string, unknown> {
  const update: Record<string, unknown> = {};
  for (const [key, value] of result.writes) {
    if (!parent.keySet.has(key)) continue;
    if (parent.reducers[key] === undefined) {
      update[key] = result.values[key];
      continue;
    }
    const reducer = child.reducers[key];
    update[key] = reducer ? reduceKey(reducer, update[key], value, { node, key }) : value;
  }
  return update;
}
