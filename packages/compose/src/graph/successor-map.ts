import type { GraphSpec } from '../pregel/topology.js';
import { END, START } from '../vocabulary/constants.js';

/**
 * The possible successors of every node, START and END, as plain maps: static edges, joins, declared
 * branch targets and gotos. A router without declared targets may go anywhere; instead of an edge to
 * every node (which made validation quadratic in graphs with many such routers) its node is listed in
 * `open`.
 */
export interface SuccessorMap {
  /** Node (START and END included) → the nodes it may trigger next. */
  readonly out: ReadonlyMap<string, ReadonlySet<string>>;
  /** Nodes with a router that declares no targets (they may trigger any node, or END). */
  readonly open: ReadonlySet<string>;
}

/**
 * Builds the successor map of a spec in one pass over its nodes, edges, joins and branches (linear in
 * their number). Endpoints that are not nodes are left out (validation reports them).
 *
 * @param declaredOnly Leave out routers without declared targets (DAG mode reports them separately).
 */
export function successorMap(spec: GraphSpec, declaredOnly: boolean): SuccessorMap {
  const out = new Map<string, Set<string>>();
  out.set(START, new Set());
  for (const name of spec.nodes.keys()) out.set(name, new Set());
  out.set(END, new Set());
  const open = new Set<string>();
  const link = (from: string, to: string): void => {
    if (out.has(to)) out.get(from)?.add(to);
  };
  for (const { from, to } of spec.edges) link(from, to);
  // Data edges (workflows) order nothing a path of ordinary edges does not; a node whose output only
  // flows as data still leads somewhere.
  for (const { from, to } of spec.dataEdges ?? []) link(from, to);
  for (const { sources, to } of spec.joins) for (const source of sources) link(source, to);
  for (const branch of spec.branches) {
    if (branch.targets) for (const target of branch.targets) link(branch.from, target);
    else if (!declaredOnly && out.has(branch.from)) open.add(branch.from);
  }
  for (const node of spec.nodes.values())
    for (const target of node.options.goto ?? []) link(node.name, target);
  return { out, open };
}

/** Nodes reachable from START, END included when some path reaches it. */
export function reachableFromStart(map: SuccessorMap): Set<string> {
  const seen = new Set<string>([START]);
  const stack = [START];
  while (stack.length > 0) {
    const node = stack.pop() as string;
    if (map.open.has(node)) return new Set(map.out.keys());
    for (const next of map.out.get(node) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        stack.push(next);
      }
    }
  }
  return seen;
}

/** Nodes from which END is reachable (a node with an open router reaches it directly). */
export function reachingEnd(map: SuccessorMap): Set<string> {
  const predecessors = new Map<string, string[]>();
  for (const [from, targets] of map.out) {
    for (const to of targets) {
      const list = predecessors.get(to);
      if (list) list.push(from);
      else predecessors.set(to, [from]);
    }
  }
  const seen = new Set<string>([END]);
  const stack = [END];
  for (const node of map.open) {
    seen.add(node);
    stack.push(node);
  }
  while (stack.length > 0) {
    const node = stack.pop() as string;
    for (const previous of predecessors.get(node) ?? []) {
      if (!seen.has(previous)) {
        seen.add(previous);
        stack.push(previous);
      }
    }
  }
  return seen;
}

/**
 * One cycle of the map as a node list that starts and ends with the same node, or undefined. Iterative
 * depth-first search, so a graph of 100,000 nodes does not overflow the call stack.
 */
export function findCycle(map: SuccessorMap): string[] | undefined {
  const done = new Set<string>();
  const onTrail = new Map<string, number>();
  for (const root of map.out.keys()) {
    if (done.has(root)) continue;
    const trail: string[] = [root];
    const iterators: Array<Iterator<string>> = [(map.out.get(root) ?? new Set<string>()).values()];
    onTrail.set(root, 0);
    while (trail.length > 0) {
      const step = (iterators[iterators.length - 1] as Iterator<string>).next();
      if (step.done) {
        const finished = trail.pop() as string;
        iterators.pop();
        onTrail.delete(finished);
        done.add(finished);
        continue;
      }
      const next = step.value;
      const at = onTrail.get(next);
      if (at !== undefined) return [...trail.slice(at), next];
      if (done.has(next)) continue;
      onTrail.set(next, trail.length);
      trail.push(next);
      iterators.push((map.out.get(next) ?? new Set<string>()).values());
    }
  }
  return undefined;
}
