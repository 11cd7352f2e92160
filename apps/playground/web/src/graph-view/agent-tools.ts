import type { Topology, TopologyNode } from '../../../src/shared/wire.ts';

const START = '__start__';
const END = '__end__';

function isTopology(value: unknown): value is Topology {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as Topology).nodes) &&
    Array.isArray((value as Topology).edges)
  );
}

/** The agents a node runs as tools (an agent's `tools` node), from its `agentTools` metadata. */
function agentToolsOf(node: TopologyNode): Array<[string, Topology]> {
  const tools = node.metadata?.agentTools;
  if (typeof tools !== 'object' || tools === null) return [];
  return Object.entries(tools).filter((entry): entry is [string, Topology] => isTopology(entry[1]));
}

/**
 * Makes agent tools expandable like subgraphs: a node whose `agentTools` metadata lists the agents it
 * calls (a host's or a ReAct agent's `tools` node) gets a nested graph holding one node per agent
 * (each its own expandable graph), reached from the node's start — the calls may run side by side —
 * and ending at its end. Applied at every depth; topologies without agent tools come back unchanged.
 *
 * @example
 * ```ts
 * const drawn = withAgentTools(host.topology); // host › tools › weather, news
 * ```
 */
export function withAgentTools(topology: Topology): Topology {
  let changed = false;
  const nodes = topology.nodes.map((node): TopologyNode => {
    if (node.subgraph) {
      const subgraph = withAgentTools(node.subgraph);
      if (subgraph === node.subgraph) return node;
      changed = true;
      return { ...node, subgraph };
    }
    const agents = agentToolsOf(node);
    if (agents.length === 0) return node;
    changed = true;
    const subgraph: Topology = {
      name: node.id,
      kind: 'state',
      mode: 'pregel',
      nodes: [
        { id: START, kind: 'function' },
        ...agents.map(
          ([name, graph]): TopologyNode => ({ id: name, kind: 'subgraph', subgraph: withAgentTools(graph) }),
        ),
        { id: END, kind: 'function' },
      ],
      edges: agents.flatMap(([name]) => [
        { source: START, target: name, kind: 'conditional' as const },
        { source: name, target: END, kind: 'static' as const },
      ]),
    };
    return { ...node, subgraph };
  });
  return changed ? { ...topology, nodes } : topology;
}
