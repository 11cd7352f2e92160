import type { ZodType } from 'zod';
import type { GraphAgentInfo } from '../events/node-events.js';
import { type ConcatFunction, concatChunks } from '../runnable/concat.js';
import { FIRST_STATE_VERSION, type StateVersioning } from '../state/migration/state-migration.js';
import { buildStateRules, buildUpdateChecks } from '../state/update-checks.js';
import { END, START } from '../vocabulary/constants.js';
import type { DataflowNodeOptions } from '../vocabulary/node-options.js';
import type { CompiledState } from './compiled-state.js';
import { NodesByName } from './nodes-by-name.js';
import { findPipes, findStreamStart } from './pipes.js';
import {
  type IndexedGraphSpec,
  type IndexedNodeSpec,
  type ResolvedEdges,
  resolveEdges,
} from './spec-index.js';
import {
  type CompiledBranch,
  type CompiledJoin,
  type CompiledNode,
  END_INDEX,
  type GraphSpec,
  type NodeHandlers,
  type NodeSpec,
  resolveRetry,
  type Topology,
} from './topology.js';

/** Options of {@link buildRuntimeTopology}. */
export interface TopologyOptions {
  readonly concat?: ConcatFunction | undefined;
  readonly checkUpdates?: boolean;
  /** The spec's static edges resolved, when the caller (`compileSpec`) already did it for validation. */
  readonly edges?: ResolvedEdges | undefined;
  /** The agent the graph runs (`compile({ agent })`). */
  readonly agent?: GraphAgentInfo | undefined;
  /** The state version and migrations (`compile({ stateVersion, migrations })`); version 1, none, by default. */
  readonly versioning?: StateVersioning | undefined;
}

/** Shared by every node with no joins, branches or data edges (the runtime only reads these lists). */
const none: readonly never[] = Object.freeze([]);

/**
 * Turns a validated spec into the indexed runtime topology in a few passes over its nodes and edges,
 * each linear: one per declaration list to group it by node index, one to build the nodes. Names resolve
 * to indexes through the positions recorded on the spec's nodes; no name map is built.
 */
export function buildRuntimeTopology(
  spec: IndexedGraphSpec,
  name: string,
  mode: 'pregel' | 'dag',
  options: TopologyOptions = {},
): Topology {
  const specNodes = spec.nodes;
  const count = specNodes.size;
  // Per source (a node's index, START at `count`), grouped in one pass over each list.
  const indexOf = (node: string): number => (specNodes.get(node) as IndexedNodeSpec).index;
  const target = (to: string): number => (to === END ? END_INDEX : indexOf(to));
  const source = (from: string): number => (from === START ? count : indexOf(from));
  const edges = groupEdges(options.edges ?? resolveEdges(spec), count);
  const dataEdges = bySource<number[]>(count);
  for (const edge of spec.dataEdges ?? []) {
    const at = source(edge.from);
    (dataEdges[at] ??= []).push(target(edge.to));
  }
  const joins: CompiledJoin[] = spec.joins.map((join, id) => ({
    id,
    sources: join.sources.map(indexOf),
    target: target(join.to),
  }));
  const branches = bySource<CompiledBranch[]>(count);
  for (const b of spec.branches) {
    const compiled: CompiledBranch = {
      from: b.from,
      router: b.router,
      targets: b.targets ? new Set(b.targets) : undefined,
      ...(b.condition ? { condition: b.condition } : {}),
    };
    (branches[source(b.from)] ??= []).push(compiled);
  }
  const joinsBySource = bySource<CompiledJoin[]>(count);
  for (const join of joins) for (const at of new Set(join.sources)) (joinsBySource[at] ??= []).push(join);
  const pipes = findPipes(spec, mode);
  const nodes: CompiledNode[] = new Array(count);
  let hasDeferred = false;
  let hasStreamBranches = false;
  let index = 0;
  for (const node of spec.nodes.values()) {
    const nodeBranches = branches[index] ?? none;
    const readers = pipes.size > 0 ? pipes.get(node.name) : undefined;
    const compiled = compileNode(node, {
      index,
      concat: node.options.concat ?? options.concat ?? concatChunks,
      edges: edges[index] ?? none,
      joins: joinsBySource[index] ?? none,
      branches: nodeBranches,
      pipes: readers?.map(target),
      dataEdges: dataEdges[index] ?? none,
    });
    hasDeferred ||= compiled.deferred;
    hasStreamBranches ||= compiled.streamBranches;
    nodes[index++] = compiled;
  }
  return {
    name,
    kind: spec.kind,
    mode,
    nodes,
    byName: new NodesByName(specNodes, nodes),
    start: {
      edges: edges[count] ?? none,
      branches: branches[count] ?? none,
      dataEdges: dataEdges[count] ?? none,
    },
    joins,
    state: spec.state ? compileState(spec, options.checkUpdates ?? true) : undefined,
    spec,
    hasDeferred,
    hasPipes: pipes.size > 0,
    streamStart: findStreamStart(spec, mode)?.length,
    hasStreamBranches,
    localState: spec.localState,
    end: spec.endMerge ? { name: END, options: { merge: spec.endMerge } } : undefined,
    agent: options.agent,
    versioning: options.versioning ?? firstVersion,
  };
}

/** The versioning of a graph that declares none. */
const firstVersion: StateVersioning = { version: FIRST_STATE_VERSION, migrations: new Map() };

/** One slot per node and one for START, preallocated (no sparse, dictionary-mode arrays). */
function bySource<T>(count: number): Array<T | undefined> {
  return new Array<T | undefined>(count + 1);
}

/** A node's routes, grouped by {@link buildRuntimeTopology}. */
type NodeRoutes = Pick<
  CompiledNode,
  'index' | 'concat' | 'edges' | 'joins' | 'branches' | 'pipes' | 'dataEdges'
>;

function compileNode(node: NodeSpec, routes: NodeRoutes): CompiledNode {
  const { options } = node;
  return {
    name: node.name,
    alone: undefined,
    idPart: undefined,
    lastIdPrefix: undefined,
    lastIdPosition: undefined,
    lastId: undefined,
    index: routes.index,
    impl: node.impl,
    options,
    retry: resolveRetry(options.retry),
    concat: routes.concat,
    inputSchema: options.input,
    outputSchema: options.output,
    edges: routes.edges,
    joins: routes.joins,
    branches: routes.branches,
    streamBranches: routes.branches.some((b) => b.condition !== undefined),
    deferred: options.defer === true,
    pipes: routes.pipes,
    handlers: handlersOf(options),
    dataEdges: routes.dataEdges,
  };
}

/** A wide fan-out switches from a linear duplicate check to a set beyond this many successors. */
const smallFanOut = 16;

/**
 * Static successors by source index (START at `count`), in declaration order without duplicates: a
 * list per source that has edges (a chain's nodes have one each), and a set only for a wide fan-out so
 * dropping duplicates stays linear. The edges come resolved and validated (END is vertex `count + 1`).
 */
function groupEdges(resolved: ResolvedEdges, count: number): Array<number[] | undefined> {
  const grouped = bySource<number[]>(count);
  const end = count + 1;
  let wide: Map<number, Set<number>> | undefined;
  for (let i = 0; i < resolved.from.length; i++) {
    const from = resolved.from[i]!;
    const at = resolved.to[i]!;
    const to = at === end ? END_INDEX : at;
    const targets = grouped[from];
    if (targets === undefined) {
      grouped[from] = [to];
      continue;
    }
    if (targets.length < smallFanOut) {
      if (!targets.includes(to)) targets.push(to);
      continue;
    }
    wide ??= new Map();
    let seen = wide.get(from);
    if (!seen) wide.set(from, (seen = new Set(targets)));
    if (!seen.has(to)) {
      seen.add(to);
      targets.push(to);
    }
  }
  return grouped;
}

function handlersOf(options: DataflowNodeOptions): NodeHandlers | undefined {
  const { before, after, afterStream, beforeStream } = options;
  if (!before && !after && !afterStream && !beforeStream) return undefined;
  // The builder typed each handler against the node's input and output; the runner passes exactly those.
  return {
    before: before as NodeHandlers['before'],
    after: after as NodeHandlers['after'],
    afterStream: afterStream as NodeHandlers['afterStream'],
    beforeStream: beforeStream as NodeHandlers['beforeStream'],
  };
}

function compileState(spec: GraphSpec, checkUpdates: boolean): CompiledState {
  const state = spec.state!;
  const keys = Object.keys(state.schema.shape);
  const defaults: Record<string, unknown> = {};
  for (const key of keys) {
    const field = state.schema.shape[key] as ZodType;
    const probe = field.safeParse(undefined);
    if (probe.success && probe.data !== undefined) defaults[key] = probe.data;
  }
  const checks = checkUpdates ? buildUpdateChecks(state.schema, state.reducers) : undefined;
  const rules = checkUpdates ? buildStateRules(state.schema) : undefined;
  return { keys, keySet: new Set(keys), reducers: state.reducers, defaults, checks, rules };
}
