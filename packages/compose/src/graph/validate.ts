import type { ValidationIssue } from '../errors/graph-validation-error.js';
import { type IndexedGraphSpec, type ResolvedEdges, resolveEdges } from '../pregel/spec-index.js';
import type { GraphSpec } from '../pregel/topology.js';
import { END, START } from '../vocabulary/constants.js';
import {
  findCycle,
  reachableFromStart,
  reachingEnd,
  type SuccessorMap,
  successorMap,
} from './successor-map.js';

/**
 * Checks a graph definition and returns every problem found (empty when it is valid). Reachability and
 * cycles are checked on flat successor arrays over node indexes (`successor-map.ts`), linear in nodes +
 * edges, over the positions the builder recorded on the nodes; messages and `at` strings are built
 * only for the problems found.
 *
 * @param edges The spec's static edges resolved, when the caller (`compileSpec`) shares them with the
 *   topology.
 */
export function validateSpec(
  spec: IndexedGraphSpec,
  mode: 'pregel' | 'dag',
  edges: ResolvedEdges = resolveEdges(spec),
): ValidationIssue[] {
  const issues: ValidationIssue[] = [...spec.issues];
  checkEndpoints(spec, edges, issues);
  checkNodeOptions(spec, issues);
  const graph = successorMap(spec, edges, false);
  if (!graph.open.includes(graph.start) && graph.offsets[graph.start] === graph.offsets[graph.start + 1]) {
    issues.push({
      kind: 'missing-entry',
      at: START,
      message:
        'nothing starts the graph; add an edge from START (addEdge(START, "first")) or a conditional edge from START',
    });
  } else {
    checkReachability(graph, issues);
  }
  if (mode === 'dag') checkDag(spec, { edges, graph }, issues);
  for (const branch of spec.branches) {
    if (branch.condition && mode === 'dag')
      issues.push({
        kind: 'invalid-edge',
        at: branch.from,
        message: `addStreamBranch("${branch.from}", …) reads a stream, which DAG mode does not run; compile with mode 'pregel' or use addConditionalEdges`,
      });
  }
  if (spec.kind === 'dataflow') checkFanIn(spec, issues);
  return issues;
}

/** Cycles are errors in DAG mode; a router there must list its targets (else it could go anywhere). */
function checkDag(
  spec: IndexedGraphSpec,
  { edges, graph }: { readonly edges: ResolvedEdges; readonly graph: SuccessorMap },
  issues: ValidationIssue[],
): void {
  const open = spec.branches.filter((branch) => branch.targets === undefined);
  for (const branch of open) {
    issues.push({
      kind: 'undeclared-target',
      at: `${branch.from} -> ?`,
      message: `in DAG mode a conditional edge must list its targets: addConditionalEdges("${branch.from}", router, [targets])`,
    });
  }
  // Without its open routers (reported above), which would link a node to every node, itself included.
  const declared = open.length > 0 ? successorMap(spec, edges, true) : graph;
  const cycle = findCycle(declared);
  if (!cycle) return;
  issues.push({
    kind: 'dag-cycle',
    at: cycle.join(' -> '),
    message: `DAG mode forbids cycles, found ${cycle.join(' -> ')}; remove the back edge or compile with mode 'pregel'`,
  });
}

/** The longest delay `setTimeout` honours; longer ones fire at once. */
const maxTimerMs = 2_147_483_647;

function checkNodeOptions(spec: GraphSpec, issues: ValidationIssue[]): void {
  for (const node of spec.nodes.values()) {
    const { timeoutMs, retry } = node.options;
    if (timeoutMs === undefined && !retry) continue;
    const bad = (message: string): void => {
      issues.push({ kind: 'invalid-option', at: node.name, message });
    };
    if (timeoutMs !== undefined && !(timeoutMs > 0 && timeoutMs <= maxTimerMs)) {
      bad(`timeoutMs must be a number of milliseconds above 0 and at most ${maxTimerMs}, got ${timeoutMs}`);
    }
    if (!retry) continue;
    const { maxAttempts, initialDelayMs, maxDelayMs, backoffFactor } = retry;
    if (maxAttempts !== undefined && !(Number.isInteger(maxAttempts) && maxAttempts >= 1)) {
      bad(`retry.maxAttempts must be a whole number of at least 1, got ${maxAttempts}`);
    }
    for (const [key, value] of [
      ['initialDelayMs', initialDelayMs],
      ['maxDelayMs', maxDelayMs],
    ] as const) {
      if (value !== undefined && !(value >= 0 && value <= maxTimerMs)) {
        bad(`retry.${key} must be between 0 and ${maxTimerMs} ms, got ${value}`);
      }
    }
    if (backoffFactor !== undefined && !(backoffFactor > 0 && Number.isFinite(backoffFactor))) {
      bad(`retry.backoffFactor must be a finite number above 0, got ${backoffFactor}`);
    }
  }
}

/** Records an endpoint that is not a node; `at` labels the edge (built only for a problem). */
function unknownNode(issues: ValidationIssue[], name: string, at: string, role: string): void {
  issues.push({
    kind: 'unknown-node',
    at,
    message: `${role} "${name}" is not a node; add it with addNode("${name}", ...) or fix the name`,
  });
}

/** Endpoints that are not nodes; a static edge's come resolved (`-1`: not a node, START or END). */
function checkEndpoints(spec: GraphSpec, edges: ResolvedEdges, issues: ValidationIssue[]): void {
  const { nodes } = spec;
  for (let i = 0; i < spec.edges.length; i++) {
    const { from, to } = spec.edges[i]!;
    if (from === END)
      issues.push({ kind: 'invalid-edge', at: `${from} -> ${to}`, message: 'END has no outgoing edges' });
    else if (edges.from[i]! < 0) unknownNode(issues, from, `${from} -> ${to}`, 'edge source');
    if (to === START)
      issues.push({
        kind: 'invalid-edge',
        at: `${from} -> ${to}`,
        message: 'START cannot be an edge target',
      });
    else if (edges.to[i]! < 0) unknownNode(issues, to, `${from} -> ${to}`, 'edge target');
  }
  for (const { sources, to } of spec.joins) {
    const at = `[${sources.join(', ')}] -> ${to}`;
    for (const source of sources) {
      if (source === START || source === END)
        issues.push({ kind: 'invalid-edge', at, message: `${source} cannot be a join source` });
      else if (!nodes.has(source)) unknownNode(issues, source, at, 'join source');
    }
    if (to !== END && !nodes.has(to)) unknownNode(issues, to, at, 'join target');
  }
  for (const branch of spec.branches) {
    if (branch.from !== START && !nodes.has(branch.from))
      unknownNode(issues, branch.from, `${branch.from} -> ?`, 'conditional edge source');
    for (const target of branch.targets ?? []) {
      if (target !== END && !nodes.has(target)) {
        issues.push({
          kind: 'undeclared-target',
          at: `${branch.from} -> ${target}`,
          message: `the router of "${branch.from}" lists "${target}", which is not a node`,
        });
      }
    }
  }
  for (const node of spec.nodes.values()) {
    const { goto } = node.options;
    if (!goto) continue;
    for (const target of goto) {
      if (target !== END && !nodes.has(target)) {
        issues.push({
          kind: 'undeclared-target',
          at: `${node.name} -> ${target}`,
          message: `goto target "${target}" of "${node.name}" is not a node`,
        });
      }
    }
  }
}

function checkReachability(graph: SuccessorMap, issues: ValidationIssue[]): void {
  const forward = reachableFromStart(graph);
  const backward = reachingEnd(graph);
  for (let v = 0; v < graph.start; v++) {
    if (forward[v] === 1 && backward[v] === 1) continue;
    const name = graph.nodes[v]!;
    if (forward[v] === 0) {
      issues.push({
        kind: 'unreachable-node',
        at: name,
        message: `no path from START reaches "${name}"; add an edge to it or remove it`,
      });
    } else {
      issues.push({
        kind: 'cannot-reach-end',
        at: name,
        message: `"${name}" can never reach END; add an edge from it (addEdge("${name}", END) or to a node that reaches END)`,
      });
    }
  }
}

function checkFanIn(spec: GraphSpec, issues: ValidationIssue[]): void {
  for (const { sources, to } of spec.joins) {
    const target = spec.nodes.get(to);
    const keyed = sources.every((source) => spec.nodes.get(source)?.options.outputKey !== undefined);
    if (to !== END && target && !target.options.merge && !keyed) {
      issues.push({
        kind: 'invalid-option',
        at: `[${sources.join(', ')}] -> ${to}`,
        message: `"${to}" joins ${sources.length} inputs; give it a merge option or give every source an outputKey`,
      });
    }
  }
}
