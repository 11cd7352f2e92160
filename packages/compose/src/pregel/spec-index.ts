import { END, START } from '../vocabulary/constants.js';
import type { GraphSpec, NodeSpec } from './topology.js';

/**
 * A node as the builders record it: its declaration and its position, set when it was added (the node
 * map's insertion order, which nothing reorders: nodes are never removed or renamed). The position is
 * the node's runtime index, so `compile()` resolves a name to an index with the one node-map lookup it
 * makes anyway instead of building its own name → index map (issue 28 goal 3).
 */
export interface IndexedNodeSpec extends NodeSpec {
  /** The node's position in its spec's node map (0 for the first node added). */
  readonly index: number;
}

/**
 * What `compile()` takes: a graph spec whose nodes carry their positions ({@link IndexedNodeSpec}). Every
 * builder (`SpecBuilder.spec()`) and the functional API's entrypoint make one; it is an ordinary
 * `GraphSpec` everywhere else (`app.spec`).
 */
export interface IndexedGraphSpec extends GraphSpec {
  readonly nodes: ReadonlyMap<string, IndexedNodeSpec>;
}

/**
 * Node names by position (insertion order), built on demand: only messages about problems need them.
 *
 * @example
 * ```ts
 * declare const spec: IndexedGraphSpec;
 * const names = nodeNames(spec); // names[spec.nodes.get('agent')!.index] === 'agent'
 * ```
 */
export function nodeNames(spec: Pick<GraphSpec, 'nodes'>): string[] {
  return [...spec.nodes.keys()];
}

/**
 * A spec's static edges (`spec.edges`, in order) with both endpoints resolved once, as vertex numbers:
 * a node's position, START the node count, END one more, `-1` for a name that is not a node. Validation
 * and the topology read them instead of looking every endpoint up again (a 5000-node chain made six
 * node-map lookups per edge before, two now).
 */
export interface ResolvedEdges {
  readonly from: Int32Array;
  readonly to: Int32Array;
}

/**
 * Resolves the endpoints of every static edge of `spec` (one node-map lookup per endpoint).
 *
 * @example
 * ```ts
 * declare const spec: IndexedGraphSpec;
 * const edges = resolveEdges(spec);
 * const fromStart = edges.from[0] === spec.nodes.size; // the first edge leaves START
 * ```
 */
export function resolveEdges(spec: IndexedGraphSpec): ResolvedEdges {
  const { nodes, edges } = spec;
  const start = nodes.size;
  const end = start + 1;
  const from = new Int32Array(edges.length);
  const to = new Int32Array(edges.length);
  for (let i = 0; i < edges.length; i++) {
    const edge = edges[i]!;
    from[i] = edge.from === START ? start : edge.from === END ? end : (nodes.get(edge.from)?.index ?? -1);
    to[i] = edge.to === START ? start : edge.to === END ? end : (nodes.get(edge.to)?.index ?? -1);
  }
  return { from, to };
}
