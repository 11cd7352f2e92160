import { WriteConflictError } from '../errors/write-conflict-error.js';
import { isPlainObject } from '../runnable/concat.js';
import { SubgraphWrites } from './subgraph-writes.js';
import type { CompiledNode, Topology } from './topology.js';

/**
 * Finds last-value keys written by two DAG nodes neither of which ran after the other: the
 * DAG-mode counterpart of two writes in one superstep. A descendant overwriting its ancestor's
 * write is fine (it saw that write); two unrelated nodes writing one key is a `WriteConflictError`.
 */
export class DagConflicts {
  private readonly ancestors = new Map<number, ReadonlySet<number>>();

  constructor(
    private readonly topology: Topology,
    private readonly predecessors: ReadonlyArray<readonly number[]>,
  ) {}

  /**
   * Records the last-value keys `index` wrote into `writers` (key → node index), folding in rank order.
   *
   * @throws WriteConflictError when an unrelated node already wrote one of them.
   */
  check(writers: Map<string, number>, index: number, write: unknown): void {
    const state = this.topology.state;
    if (!state) return;
    const keys =
      write instanceof SubgraphWrites
        ? write.writes.map(([key]) => key)
        : isPlainObject(write)
          ? Object.keys(write)
          : [];
    for (const key of keys) {
      if (state.reducers[key] !== undefined || !state.keySet.has(key)) continue;
      const previous = writers.get(key);
      if (previous !== undefined && previous !== index && !this.ancestorsOf(index).has(previous)) {
        throw new WriteConflictError(
          key,
          [this.nameOf(previous), this.nameOf(index)],
          'give the key a reducer or let one node write it (or order the two nodes with an edge)',
        );
      }
      writers.set(key, index);
    }
  }

  private nameOf(index: number): string {
    return (this.topology.nodes[index] as CompiledNode).name;
  }

  private ancestorsOf(index: number): ReadonlySet<number> {
    let found = this.ancestors.get(index);
    if (found) return found;
    const seen = new Set<number>();
    const stack = [...(this.predecessors[index] ?? [])];
    while (stack.length > 0) {
      const current = stack.pop() as number;
      if (current < 0 || seen.has(current)) continue;
      seen.add(current);
      stack.push(...(this.predecessors[current] ?? []));
    }
    found = seen;
    this.ancestors.set(index, found);
    return found;
  }
}
