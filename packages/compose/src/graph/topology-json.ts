import type { GraphSpec } from '../pregel/topology.js';
import { END, START } from '../vocabulary/constants.js';

/** A node as `toJSON()` describes it. */
export interface GraphJSONNode {
  readonly id: string;
  readonly kind: 'function' | 'runnable' | 'subgraph';
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly defer?: boolean;
  /** The nested graph, for subgraph nodes. */
  readonly subgraph?: GraphJSON;
  /**
   * A functional-API entrypoint's node: the tasks its body calls, as `entrypoint({ tasks })` declared
   * them (they are called at run time, so only the declared ones are known before a run).
   */
  readonly tasks?: readonly string[];
}

/** An edge as `toJSON()` describes it. */
export interface GraphJSONEdge {
  readonly source: string;
  readonly target: string;
  /** `static` edges always fire; `conditional` ones when a router picks them; `join` ones wait for all sources. */
  readonly kind: 'static' | 'conditional' | 'join' | 'goto';
  /** For conditional edges whose router declared no targets: the target set is unknown. */
  readonly dynamic?: boolean;
}

/** The topology of a compiled graph: serializable, for drawing and tooling. */
export interface GraphJSON {
  readonly name: string;
  readonly kind: 'state' | 'dataflow';
  readonly mode: 'pregel' | 'dag';
  readonly nodes: readonly GraphJSONNode[];
  readonly edges: readonly GraphJSONEdge[];
  /** Join groups: a target that waits for all of its sources. */
  readonly joins: ReadonlyArray<{ readonly sources: readonly string[]; readonly target: string }>;
  /** State keys and whether each has a reducer (state graphs). */
  readonly state?: ReadonlyArray<{ readonly key: string; readonly reducer: boolean }>;
}

/** Describes a graph spec as JSON (nodes, edges with kinds, joins, nested subgraphs). */
export function specToJSON(spec: GraphSpec, name: string, mode: 'pregel' | 'dag'): GraphJSON {
  const nodes: GraphJSONNode[] = [{ id: START, kind: 'function' }];
  for (const node of spec.nodes.values()) {
    nodes.push({
      id: node.name,
      kind: node.impl.kind,
      ...(node.options.metadata ? { metadata: node.options.metadata } : {}),
      ...(node.options.defer ? { defer: true } : {}),
      ...(node.impl.kind === 'subgraph' ? { subgraph: node.impl.graph.toJSON() as GraphJSON } : {}),
      ...(spec.io && spec.io.tasks.length > 0 ? { tasks: spec.io.tasks } : {}),
    });
  }
  nodes.push({ id: END, kind: 'function' });
  const edges: GraphJSONEdge[] = spec.edges.map((e) => ({
    source: e.from,
    target: e.to,
    kind: 'static' as const,
  }));
  for (const join of spec.joins)
    for (const source of join.sources) edges.push({ source, target: join.to, kind: 'join' });
  for (const branch of spec.branches) {
    const targets = branch.targets ?? [...spec.nodes.keys(), END];
    for (const target of targets) {
      edges.push({
        source: branch.from,
        target,
        kind: 'conditional',
        ...(branch.targets ? {} : { dynamic: true }),
      });
    }
  }
  for (const node of spec.nodes.values()) {
    for (const target of node.options.goto ?? []) edges.push({ source: node.name, target, kind: 'goto' });
  }
  const state = spec.state
    ? Object.keys(spec.state.schema.shape).map((key) => ({
        key,
        reducer: spec.state?.reducers[key] !== undefined,
      }))
    : undefined;
  return {
    name,
    kind: spec.kind,
    mode,
    nodes,
    edges,
    joins: spec.joins.map((j) => ({ sources: j.sources, target: j.to })),
    ...(state ? { state } : {}),
  };
}

/**
 * Draws a graph as a Mermaid flowchart: solid arrows for static edges, dotted for conditional ones,
 * thick for joins, and subgraph nodes expanded as nested Mermaid subgraphs.
 */
export function jsonToMermaid(graph: GraphJSON): string {
  const lines = ['flowchart TD'];
  draw(graph, '', lines, '  ');
  return lines.join('\n');
}

/** Words Mermaid reads as syntax, which must not be used as node ids. */
const mermaidKeywords = new Set([
  'end',
  'subgraph',
  'graph',
  'flowchart',
  'style',
  'class',
  'classdef',
  'click',
  'linkstyle',
  'direction',
  'default',
]);

function draw(graph: GraphJSON, prefix: string, lines: string[], indent: string): void {
  const id = mermaidIds(graph, prefix);
  for (const node of graph.nodes) {
    if (node.subgraph) {
      lines.push(`${indent}subgraph ${id(node.id)} [${label(node.id)}]`);
      draw(node.subgraph, `${id(node.id)}__`, lines, `${indent}  `);
      lines.push(`${indent}end`);
    } else if (node.id === START || node.id === END) {
      lines.push(`${indent}${id(node.id)}([${node.id === START ? 'start' : 'end'}])`);
    } else lines.push(`${indent}${id(node.id)}[${label(node.id)}]`);
  }
  for (const edge of graph.edges) {
    const arrow = edge.kind === 'static' ? '-->' : edge.kind === 'join' ? '==>' : '-.->';
    lines.push(`${indent}${id(edge.source)} ${arrow} ${id(edge.target)}`);
  }
}

/** Gives each node a distinct Mermaid-safe id (`a-b` and `a_b` must not become one node; `end` is syntax). */
function mermaidIds(graph: GraphJSON, prefix: string): (name: string) => string {
  const ids = new Map<string, string>();
  const used = new Set<string>();
  for (const node of graph.nodes) {
    const base = `${prefix}${node.id.replace(/[^A-Za-z0-9_]/g, '_')}`;
    let id = base;
    for (let n = 1; used.has(id) || mermaidKeywords.has(id.toLowerCase()); n++) id = `${base}_${n}`;
    used.add(id);
    ids.set(node.id, id);
  }
  return (name) => ids.get(name) ?? `${prefix}${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

function label(name: string): string {
  return `"${name.replace(/"/g, '#quot;')}"`;
}
