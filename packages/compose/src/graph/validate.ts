import type { ValidationIssue } from '../errors/graph-validation-error.js';
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
 * cycles are checked on plain successor maps (`successor-map.ts`), linear in nodes + edges: building a
 * graphology graph for them cost most of a 5000-node chain's compile.
 */
export function validateSpec(spec: GraphSpec, mode: 'pregel' | 'dag'): ValidationIssue[] {
  const issues: ValidationIssue[] = [...spec.issues];
  checkEndpoints(spec, issues);
  checkNodeOptions(spec, issues);
  const graph = successorMap(spec, false);
  if (!graph.open.has(START) && (graph.out.get(START)?.size ?? 0) === 0) {
    issues.push({
      kind: 'missing-entry',
      at: START,
      message:
        'nothing starts the graph; add an edge from START (addEdge(START, "first")) or a conditional edge from START',
    });
  } else {
    checkReachability(spec, graph, issues);
  }
  if (mode === 'dag') checkDag(spec, graph, issues);
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
function checkDag(spec: GraphSpec, graph: SuccessorMap, issues: ValidationIssue[]): void {
  const open = spec.branches.filter((branch) => branch.targets === undefined);
  for (const branch of open) {
    issues.push({
      kind: 'undeclared-target',
      at: `${branch.from} -> ?`,
      message: `in DAG mode a conditional edge must list its targets: addConditionalEdges("${branch.from}", router, [targets])`,
    });
  }
  // Without its open routers (reported above), which would link a node to every node, itself included.
  const declared = open.length > 0 ? successorMap(spec, true) : graph;
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

function checkEndpoints(spec: GraphSpec, issues: ValidationIssue[]): void {
  const known = (name: string, at: string, role: string): boolean => {
    if (spec.nodes.has(name)) return true;
    issues.push({
      kind: 'unknown-node',
      at,
      message: `${role} "${name}" is not a node; add it with addNode("${name}", ...) or fix the name`,
    });
    return false;
  };
  for (const { from, to } of spec.edges) {
    const at = `${from} -> ${to}`;
    if (from === END) issues.push({ kind: 'invalid-edge', at, message: 'END has no outgoing edges' });
    else if (from !== START) known(from, at, 'edge source');
    if (to === START) issues.push({ kind: 'invalid-edge', at, message: 'START cannot be an edge target' });
    else if (to !== END) known(to, at, 'edge target');
  }
  for (const { sources, to } of spec.joins) {
    const at = `[${sources.join(', ')}] -> ${to}`;
    for (const source of sources) {
      if (source === START || source === END)
        issues.push({ kind: 'invalid-edge', at, message: `${source} cannot be a join source` });
      else known(source, at, 'join source');
    }
    if (to !== END) known(to, at, 'join target');
  }
  for (const branch of spec.branches) {
    if (branch.from !== START) known(branch.from, `${branch.from} -> ?`, 'conditional edge source');
    for (const target of branch.targets ?? []) {
      if (target !== END && !spec.nodes.has(target)) {
        issues.push({
          kind: 'undeclared-target',
          at: `${branch.from} -> ${target}`,
          message: `the router of "${branch.from}" lists "${target}", which is not a node`,
        });
      }
    }
  }
  for (const node of spec.nodes.values()) {
    for (const target of node.options.goto ?? []) {
      if (target !== END && !spec.nodes.has(target)) {
        issues.push({
          kind: 'undeclared-target',
          at: `${node.name} -> ${target}`,
          message: `goto target "${target}" of "${node.name}" is not a node`,
        });
      }
    }
  }
}

function checkReachability(spec: GraphSpec, graph: SuccessorMap, issues: ValidationIssue[]): void {
  const forward = reachableFromStart(graph);
  const backward = reachingEnd(graph);
  for (const name of spec.nodes.keys()) {
    if (!forward.has(name)) {
      issues.push({
        kind: 'unreachable-node',
        at: name,
        message: `no path from START reaches "${name}"; add an edge to it or remove it`,
      });
    } else if (!backward.has(name)) {
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
