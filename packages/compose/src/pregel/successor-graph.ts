import { DirectedGraph } from 'graphology';
import { END, START } from '../vocabulary/constants.js';
import type { GraphSpec } from './topology.js';

/**
 * Builds the possible-successor graph: static edges, data edges, joins, branch targets and declared gotos. Validation
 * (reachability, cycles) and the DAG planner both read it.
 *
 * @example
 * ```ts
 * const graph = new StateGraph(z.object({ text: z.string() }))
 *   .addNode('upper', (s) => ({ text: s.text.toUpperCase() }))
 *   .addEdge(START, 'upper')
 *   .addEdge('upper', END);
 * const successors = buildTopology(graph.compile().spec);
 * successors.outNeighbors(START); // ['upper']: the nodes the run can start with
 * ```
 */
export function buildTopology(spec: GraphSpec): DirectedGraph {
  const graph = new DirectedGraph();
  graph.addNode(START);
  for (const name of spec.nodes.keys()) graph.addNode(name);
  graph.addNode(END);
  const link = (from: string, to: string): void => {
    if (graph.hasNode(from) && graph.hasNode(to) && !graph.hasEdge(from, to)) graph.addEdge(from, to);
  };
  for (const { from, to } of spec.edges) link(from, to);
  // A data edge orders nothing a path of ordinary edges does not already order; DAG mode counts it as a
  // predecessor so the target's input is complete when it starts.
  for (const { from, to } of spec.dataEdges ?? []) link(from, to);
  for (const { sources, to } of spec.joins) for (const source of sources) link(source, to);
  for (const branch of spec.branches) {
    const targets = branch.targets ?? [...spec.nodes.keys(), END];
    for (const target of targets) link(branch.from, target);
  }
  for (const node of spec.nodes.values())
    for (const target of node.options.goto ?? []) link(node.name, target);
  return graph;
}
