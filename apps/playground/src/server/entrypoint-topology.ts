import type { GraphJSON, GraphJSONNode } from '@weft/compose';
import type { Topology, TopologyNode } from '../shared/wire.ts';

const START = '__start__';
const END = '__end__';

/**
 * How the playground draws a functional-API entrypoint: its node holds a nested graph of the tasks its
 * body calls (as `entrypoint({ tasks })` declared them), each reached from the node's start — the body
 * calls them in any order, several at once — and ending at its end. Task calls run as nodes at path
 * `[entrypoint, task]` in the run's events, so the nested nodes light up like a subgraph's. Nodes
 * without tasks, at any depth, come back unchanged.
 *
 * @example
 * ```ts
 * const topology = withEntrypointTasks(research.toJSON()); // research › search, draft, review
 * ```
 */
export function withEntrypointTasks(topology: GraphJSON): Topology {
  const nodes = topology.nodes.map((node: GraphJSONNode): TopologyNode => {
    const { tasks, subgraph, ...rest } = node;
    if (subgraph) return { ...rest, subgraph: withEntrypointTasks(subgraph) };
    if (!tasks || tasks.length === 0) return rest;
    return {
      ...rest,
      subgraph: {
        name: node.id,
        kind: 'state',
        mode: 'pregel',
        nodes: [
          { id: START, kind: 'function' },
          ...tasks.map((task): TopologyNode => ({ id: task, kind: 'function' })),
          { id: END, kind: 'function' },
        ],
        edges: tasks.flatMap((task) => [
          { source: START, target: task, kind: 'conditional' as const },
          { source: task, target: END, kind: 'static' as const },
        ]),
      },
    };
  });
  return { ...topology, nodes };
}
