import type { Topology, TopologyNode } from '../../../src/shared/wire.ts';

/** What a remote A2A agent's node says about it (`@weft/a2a`'s `RemoteA2aAgent`). */
interface RemoteA2aMetadata {
  readonly url: string | null;
  readonly agent: string;
}

function ownRemote(node: TopologyNode): RemoteA2aMetadata | undefined {
  const remote = node.metadata?.remoteA2a as RemoteA2aMetadata | undefined;
  return typeof remote?.agent === 'string' ? remote : undefined;
}

/**
 * The remote A2A agent a node stands for: its own `remoteA2a` metadata (the node that calls the remote
 * agent), or — for an agent's subgraph in a team, a supervisor's worker — that of a node inside it whose
 * agent has the subgraph's name. Undefined for every other node.
 *
 * @example
 * ```ts
 * remoteAgentOf({ id: 'remote', kind: 'function', metadata: { remoteA2a: { url: 'http://h/', agent: 'researcher' } } });
 * // { url: 'http://h/', agent: 'researcher' }
 * ```
 */
export function remoteAgentOf(node: TopologyNode): RemoteA2aMetadata | undefined {
  return ownRemote(node) ?? (node.subgraph ? inside(node.subgraph, node.id) : undefined);
}

function inside(topology: Topology, agent: string): RemoteA2aMetadata | undefined {
  for (const node of topology.nodes) {
    const own = ownRemote(node);
    if (own?.agent === agent) return own;
    if (node.subgraph && node.id === agent) {
      const nested = inside(node.subgraph, agent);
      if (nested) return nested;
    }
  }
  return undefined;
}
