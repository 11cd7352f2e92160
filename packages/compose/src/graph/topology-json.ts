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

/** A field mapping a workflow edge carries: dotted paths, `''` for the whole value. */
export interface GraphJSONMapping {
  readonly from: string;
  readonly to: string;
}

/** An edge as `toJSON()` describes it. */
export interface GraphJSONEdge {
  readonly source: string;
  readonly target: string;
  /**
   * `static` edges always fire; `conditional` ones when a router picks them; `join` ones wait for all
   * sources; `data` ones (workflows) carry a value without triggering their target.
   */
  readonly kind: 'static' | 'conditional' | 'join' | 'goto' | 'data';
  /** For conditional edges whose router declared no targets: the target set is unknown. */
  readonly dynamic?: boolean;
  /**
   * Workflows only (Eino's data and control edges): `data` carries fields without triggering, `control`
   * triggers and carries nothing (`addDependency`, or a branch), `data+control` does both.
   */
  readonly flow?: 'data' | 'control' | 'data+control';
  /** Workflows only: the field mappings a data-carrying edge applies. */
  readonly mappings?: readonly GraphJSONMapping[];
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
  const flowOf = spec.wiring ? wiringFlow(spec.wiring) : undefined;
  const edges: GraphJSONEdge[] = spec.edges.map((e) => ({
    source: e.from,
    target: e.to,
    kind: 'static' as const,
    ...flowOf?.(e.from, e.to),
  }));
  for (const e of spec.dataEdges ?? []) {
    edges.push({ source: e.from, target: e.to, kind: 'data', ...flowOf?.(e.from, e.to) });
  }
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
        // A workflow branch only picks its targets; each maps its own inputs.
        ...(flowOf ? { flow: 'control' as const } : {}),
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

/** A workflow edge's flow and mappings, looked up by its ends. */
function wiringFlow(
  wiring: NonNullable<GraphSpec['wiring']>,
): (from: string, to: string) => Pick<GraphJSONEdge, 'flow' | 'mappings'> {
  const byEnds = new Map(wiring.map((w) => [`${w.from}\u0000${w.to}`, w]));
  return (from, to) => {
    const declared = byEnds.get(`${from}\u0000${to}`);
    if (!declared) return {};
    const carries = declared.mappings.length > 0;
    const flow = !declared.direct ? 'data' : carries ? 'data+control' : 'control';
    return { flow, ...(carries ? { mappings: declared.mappings } : {}) };
  };
}

/**
 * Draws a graph as a Mermaid flowchart: solid arrows for static edges, dotted for conditional ones,
 * thick for joins, circle-ended for a workflow's data-only edges, and subgraph nodes expanded as nested
 * Mermaid subgraphs. A workflow edge is labelled with its field mappings, or `control` when it only
 * triggers.
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
    const arrow =
      edge.kind === 'static' ? '-->' : edge.kind === 'join' ? '==>' : edge.kind === 'data' ? '--o' : '-.->';
    lines.push(`${indent}${id(edge.source)} ${arrow}${edgeLabel(edge)} ${id(edge.target)}`);
  }
}

/** A workflow edge's label: its field mappings (`*` is the whole value), or `control` when it carries none. */
function edgeLabel(edge: GraphJSONEdge): string {
  if (edge.mappings && edge.mappings.length > 0) {
    const text = edge.mappings.map((m) => `${m.from || '*'} → ${m.to || '*'}`).join(', ');
    return `|"${text.replace(/"/g, '#quot;')}"|`;
  }
  return edge.flow === 'control' && edge.kind !== 'conditional' ? '|control|' : '';
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
