import { WeftError } from '../errors/weft-error.js';
import type { NestedStateView, Topology } from '../pregel/topology.js';
import { readState, type StateSnapshot, type ThreadAt } from './thread-state.js';

/** The nested graph a node runs, or `undefined` when the node is not a subgraph. */
function nestedOf(topology: Topology, node: string): NestedStateView | undefined {
  const impl = topology.byName.get(node)?.impl;
  return impl?.kind === 'subgraph' ? impl.graph.nestedState?.() : undefined;
}

/**
 * The topology of the graph whose checkpoints live under `ns` (`''` is the graph itself): each
 * `|`-separated part starts with the name of a subgraph node of the graph before it
 * (`node:taskId`, or `node` for a subgraph compiled with `checkpointer: true`).
 *
 * @throws WeftError `INVALID_ARGUMENT` naming the namespace and the part that is not a subgraph node.
 */
export function topologyAt(topology: Topology, ns: string): Topology {
  let current = topology;
  if (ns === '') return current;
  for (const part of ns.split('|')) {
    const node = part.split(':')[0] as string;
    const nested = nestedOf(current, node);
    if (!nested) {
      const subgraphs = [...current.byName.keys()].filter((name) => nestedOf(current, name));
      throw new WeftError(
        'INVALID_ARGUMENT',
        `namespace "${ns}": "${node}" is not a subgraph node of graph "${current.name}" ` +
          `(subgraph nodes: ${subgraphs.join(', ') || 'none'})`,
      );
    }
    current = nested.topology;
  }
  return current;
}

/**
 * `snapshot` (read under `ns`) with each subgraph task's namespace and, when that namespace has
 * checkpoints, its state (recursively), as `getState(thread, { subgraphs: true })` returns it.
 */
export async function withSubgraphStates(thread: ThreadAt, snapshot: StateSnapshot): Promise<StateSnapshot> {
  const { checkpointer, topology, threadId, ns = '' } = thread;
  const tasks = await Promise.all(
    snapshot.tasks.map(async (task) => {
      const nested = nestedOf(topology, task.node);
      if (!nested) return task;
      const address = nested.keepsState ? task.node : `${task.node}:${task.id}`;
      const childNs = ns === '' ? address : `${ns}|${address}`;
      const child: ThreadAt = { checkpointer, topology: nested.topology, threadId, ns: childNs };
      const state = await readState(child);
      if (!state) return { ...task, ns: childNs };
      const deep = await withSubgraphStates(child, state);
      return { ...task, ns: childNs, state: deep };
    }),
  );
  return { ...snapshot, tasks };
}
