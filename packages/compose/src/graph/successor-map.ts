import { type IndexedGraphSpec, nodeNames, type ResolvedEdges } from '../pregel/spec-index.js';
import { END, START } from '../vocabulary/constants.js';

/**
 * The possible successors of every node, START and END: static edges, data edges, joins, declared
 * branch targets and gotos, over vertex numbers (a node's index, then START, then END) in flat arrays
 * (compressed rows: vertex `v`'s successors are `targets[offsets[v]]` up to `targets[offsets[v + 1]]`,
 * in declaration order, duplicates kept). No set or list per node: validating a 5000-node chain
 * allocates a handful of arrays. A router without declared targets may go anywhere; instead of an edge
 * to every node (which made validation quadratic in graphs with many such routers) its node is listed
 * in `open`.
 */
export interface SuccessorMap {
  /** Node names in insertion order (vertex `v < start` is node `nodes[v]`). */
  readonly nodes: readonly string[];
  /** START's vertex number (the node count); END's is one more. */
  readonly start: number;
  readonly end: number;
  /** Where each vertex's successors begin in `targets` (one entry per vertex, plus the total). */
  readonly offsets: Int32Array;
  readonly targets: Int32Array;
  /** Where each vertex's predecessors begin in `sources` (the same edges, reversed). */
  readonly reverseOffsets: Int32Array;
  readonly sources: Int32Array;
  /** Vertices with a router that declares no targets (they may trigger any node, or END). */
  readonly open: readonly number[];
}

/**
 * Builds the successor map of a spec in one pass over its nodes, edges, joins and branches (linear in
 * their number). Endpoints that are not nodes are left out (validation reports them).
 *
 * @param declaredOnly Leave out routers without declared targets (DAG mode reports them separately).
 */
export function successorMap(
  spec: IndexedGraphSpec,
  edges: ResolvedEdges,
  declaredOnly: boolean,
): SuccessorMap {
  const { nodes } = spec;
  const start = nodes.size;
  const end = start + 1;
  // A node's position is recorded on it (IndexedNodeSpec): one lookup in the spec's own node map.
  const vertex = (name: string): number =>
    name === START ? start : name === END ? end : (nodes.get(name)?.index ?? -1);
  const from: number[] = [];
  const to: number[] = [];
  const link = (source: string, target: string): void => {
    const a = vertex(source);
    const b = vertex(target);
    if (a >= 0 && b >= 0) {
      from.push(a);
      to.push(b);
    }
  };
  // Static edges come resolved (the same vertex numbers as `vertex`).
  for (let i = 0; i < edges.from.length; i++) {
    const a = edges.from[i]!;
    const b = edges.to[i]!;
    if (a >= 0 && b >= 0) {
      from.push(a);
      to.push(b);
    }
  }
  // Data edges (workflows) order nothing a path of ordinary edges does not; a node whose output only
  // flows as data still leads somewhere.
  for (const edge of spec.dataEdges ?? []) link(edge.from, edge.to);
  for (const join of spec.joins) for (const source of join.sources) link(source, join.to);
  const open: number[] = [];
  const isOpen = new Uint8Array(end + 1);
  for (const branch of spec.branches) {
    if (branch.targets) for (const target of branch.targets) link(branch.from, target);
    else if (!declaredOnly) {
      const at = vertex(branch.from);
      if (at >= 0 && isOpen[at] === 0) {
        isOpen[at] = 1;
        open.push(at);
      }
    }
  }
  for (const node of spec.nodes.values()) {
    const { goto } = node.options;
    if (goto) for (const target of goto) link(node.name, target);
  }
  const [offsets, targets] = rows(end + 1, from, to);
  const [reverseOffsets, sources] = rows(end + 1, to, from);
  return {
    nodes: nodeNames(spec),
    start,
    end,
    offsets,
    targets,
    reverseOffsets,
    sources,
    open,
  };
}

/** The name of a vertex: its node's, or START or END. */
export function vertexName(map: SuccessorMap, vertex: number): string {
  return vertex === map.start ? START : vertex === map.end ? END : map.nodes[vertex]!;
}

/** Compressed rows of the edges `from[i] → to[i]` over `vertices` vertices (a counting sort, stable). */
function rows(vertices: number, from: readonly number[], to: readonly number[]): [Int32Array, Int32Array] {
  const offsets = new Int32Array(vertices + 1);
  for (const a of from) offsets[a + 1]!++;
  for (let v = 0; v < vertices; v++) offsets[v + 1]! += offsets[v]!;
  const next = offsets.slice(0, vertices);
  const targets = new Int32Array(from.length);
  for (let i = 0; i < from.length; i++) targets[next[from[i]!]!++] = to[i]!;
  return [offsets, targets];
}

/** Vertices reachable from START (1 = reached), END included when some path reaches it. */
export function reachableFromStart(map: SuccessorMap): Uint8Array {
  const seen = new Uint8Array(map.end + 1);
  const openAt = new Uint8Array(map.end + 1);
  for (const v of map.open) openAt[v] = 1;
  seen[map.start] = 1;
  const stack = [map.start];
  while (stack.length > 0) {
    const v = stack.pop() as number;
    // An open router may trigger any node: everything is reachable.
    if (openAt[v] === 1) return seen.fill(1);
    for (let i = map.offsets[v]!; i < map.offsets[v + 1]!; i++) {
      const next = map.targets[i]!;
      if (seen[next] === 0) {
        seen[next] = 1;
        stack.push(next);
      }
    }
  }
  return seen;
}

/** Vertices from which END is reachable (1 = reaches it; a node with an open router reaches it directly). */
export function reachingEnd(map: SuccessorMap): Uint8Array {
  const seen = new Uint8Array(map.end + 1);
  seen[map.end] = 1;
  const stack = [map.end];
  for (const v of map.open) {
    seen[v] = 1;
    stack.push(v);
  }
  while (stack.length > 0) {
    const v = stack.pop() as number;
    for (let i = map.reverseOffsets[v]!; i < map.reverseOffsets[v + 1]!; i++) {
      const previous = map.sources[i]!;
      if (seen[previous] === 0) {
        seen[previous] = 1;
        stack.push(previous);
      }
    }
  }
  return seen;
}

/**
 * One cycle of the map as a node list that starts and ends with the same node, or undefined. Iterative
 * depth-first search from START, then each node in order, then END, so a graph of 100,000 nodes does
 * not overflow the call stack.
 */
export function findCycle(map: SuccessorMap): string[] | undefined {
  const vertices = map.end + 1;
  // 0: not seen; 1: on the current trail; 2: done.
  const mark = new Uint8Array(vertices);
  const trailAt = new Int32Array(vertices);
  const trail: number[] = [];
  const cursor: number[] = [];
  for (let r = 0; r < vertices; r++) {
    const root = r === 0 ? map.start : r <= map.start ? r - 1 : map.end;
    if (mark[root] !== 0) continue;
    mark[root] = 1;
    trail.push(root);
    cursor.push(map.offsets[root]!);
    while (trail.length > 0) {
      const top = trail.length - 1;
      const v = trail[top]!;
      const i = cursor[top]!;
      if (i === map.offsets[v + 1]) {
        trail.pop();
        cursor.pop();
        mark[v] = 2;
        continue;
      }
      cursor[top] = i + 1;
      const next = map.targets[i]!;
      if (mark[next] === 1) return [...trail.slice(trailAt[next]), next].map((w) => vertexName(map, w));
      if (mark[next] === 2) continue;
      mark[next] = 1;
      trailAt[next] = trail.length;
      trail.push(next);
      cursor.push(map.offsets[next]!);
    }
  }
  return undefined;
}
