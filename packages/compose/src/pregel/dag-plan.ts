import { topologicalSort } from 'graphology-dag';
import { END, START } from '../vocabulary/constants.js';
import { buildTopology } from './successor-graph.js';
import type { Topology } from './topology.js';

/** Precomputed structure of a DAG-mode graph: predecessors, successors and topological ranks. */
export interface DagPlan {
  /** Structural predecessors of each node (START as -2), unique, in rank order. */
  readonly predecessors: ReadonlyArray<readonly number[]>;
  /** Structural successors of each node and of START (key -2); END as -1. */
  readonly successors: ReadonlyMap<number, readonly number[]>;
  /** Topological rank of each node (lower runs earlier). */
  readonly rank: readonly number[];
  /** Generation (longest distance from START) of each node, used as its step number in events. */
  readonly generation: readonly number[];
}

/** Index used for START in DAG plans. */
export const START_INDEX = -2;

/** Computes the DAG plan of a topology (called once per compiled graph, lazily). */
export function buildDagPlan(topology: Topology): DagPlan {
  const graph = buildTopology(topology.spec);
  const order = topologicalSort(graph);
  const indexOf = (name: string): number =>
    name === START ? START_INDEX : name === END ? -1 : (topology.byName.get(name)?.index as number);
  const rank: number[] = new Array(topology.nodes.length).fill(0);
  const generation: number[] = new Array(topology.nodes.length).fill(0);
  const generationOf = new Map<string, number>([[START, -1]]);
  order.forEach((name, position) => {
    const index = indexOf(name);
    if (index >= 0) rank[index] = position;
    let deepest = -1;
    graph.forEachInNeighbor(name, (from) => {
      deepest = Math.max(deepest, generationOf.get(from) ?? -1);
    });
    generationOf.set(name, name === START ? -1 : deepest + 1);
    if (index >= 0) generation[index] = deepest + 1;
  });
  const predecessors = topology.nodes.map((node) =>
    graph
      .inNeighbors(node.name)
      .map(indexOf)
      .sort((a, b) =>
        a === START_INDEX ? -1 : b === START_INDEX ? 1 : (rank[a] as number) - (rank[b] as number),
      ),
  );
  const successors = new Map<number, number[]>();
  for (const name of [START, ...topology.byName.keys()])
    successors.set(indexOf(name), graph.outNeighbors(name).map(indexOf));
  return { predecessors, successors, rank, generation };
}

const plans = new WeakMap<Topology, DagPlan>();

/** The DAG plan of a topology, computed once and cached. */
export function dagPlanOf(topology: Topology): DagPlan {
  let plan = plans.get(topology);
  if (!plan) plans.set(topology, (plan = buildDagPlan(topology)));
  return plan;
}
