import type { ZodType } from 'zod';
import { type ConcatFunction, concatChunks } from '../runnable/concat.js';
import { buildUpdateChecks } from '../state/update-checks.js';
import { END, START } from '../vocabulary/constants.js';
import type { DataflowNodeOptions, RetryPolicy } from '../vocabulary/node-options.js';
import type { CompiledState } from './compiled-state.js';
import type { BranchSpec, GraphSpec, NodeImpl } from './graph-spec.js';

/** Index used for END in successor lists. */
export const END_INDEX = -1;

/** A retry policy with every field filled in. */
export type ResolvedRetry = Required<Omit<RetryPolicy, 'retryOn'>> & Pick<RetryPolicy, 'retryOn'>;

/** A conditional edge, ready to run. */
export interface CompiledBranch {
  readonly from: string;
  readonly router: BranchSpec['router'];
  readonly targets: ReadonlySet<string> | undefined;
}

/** A join (`addEdge([a, b], c)`): `target` runs once every source has finished since it last ran. */
export interface CompiledJoin {
  readonly id: number;
  readonly sources: readonly number[];
  readonly target: number;
}

/** A node, ready to run: implementation, options and outgoing routes by index. */
export interface CompiledNode {
  readonly name: string;
  readonly index: number;
  readonly impl: NodeImpl;
  readonly options: DataflowNodeOptions;
  readonly retry: ResolvedRetry | undefined;
  readonly concat: ConcatFunction;
  readonly inputSchema: ZodType | undefined;
  readonly outputSchema: ZodType | undefined;
  /** Static successors (END_INDEX for END). */
  readonly edges: readonly number[];
  readonly joins: readonly CompiledJoin[];
  readonly branches: readonly CompiledBranch[];
  /** Runs only when no other task is pending (the `defer` option). */
  readonly deferred: boolean;
}

/** Everything the runtime needs, indexed for speed. Immutable once built. */
export interface Topology {
  readonly name: string;
  readonly kind: 'state' | 'dataflow';
  readonly mode: 'pregel' | 'dag';
  readonly nodes: readonly CompiledNode[];
  readonly byName: ReadonlyMap<string, CompiledNode>;
  readonly start: { readonly edges: readonly number[]; readonly branches: readonly CompiledBranch[] };
  readonly joins: readonly CompiledJoin[];
  readonly state: CompiledState | undefined;
  readonly spec: GraphSpec;
  /** True when some node has the `defer` option. */
  readonly hasDeferred: boolean;
}

const defaultRetry = {
  maxAttempts: 3,
  initialDelayMs: 100,
  backoffFactor: 2,
  maxDelayMs: 10_000,
  jitter: true,
};

/** Turns a validated spec into the indexed runtime topology. */
export function buildRuntimeTopology(
  spec: GraphSpec,
  name: string,
  mode: 'pregel' | 'dag',
  options: { readonly concat?: ConcatFunction | undefined; readonly checkUpdates?: boolean } = {},
): Topology {
  const { concat } = options;
  const names = [...spec.nodes.keys()];
  const indexOf = new Map(names.map((n, i) => [n, i]));
  const target = (to: string): number => (to === END ? END_INDEX : (indexOf.get(to) as number));
  // Sets (in insertion order) drop duplicate edges without a quadratic scan of a wide fan-out.
  const edgeSets = new Map<string, Set<number>>();
  for (const edge of spec.edges) {
    const set = edgeSets.get(edge.from);
    if (set) set.add(target(edge.to));
    else edgeSets.set(edge.from, new Set([target(edge.to)]));
  }
  const edges = new Map<string, number[]>();
  for (const [from, set] of edgeSets) edges.set(from, [...set]);
  const joins: CompiledJoin[] = spec.joins.map((join, id) => ({
    id,
    sources: join.sources.map((s) => indexOf.get(s) as number),
    target: target(join.to),
  }));
  // Grouped once by node (not filtered per node), so the build stays linear in nodes + edges.
  const branchesByNode = new Map<string, CompiledBranch[]>();
  for (const b of spec.branches) {
    const compiled = { from: b.from, router: b.router, targets: b.targets ? new Set(b.targets) : undefined };
    const list = branchesByNode.get(b.from);
    if (list) list.push(compiled);
    else branchesByNode.set(b.from, [compiled]);
  }
  const branchesOf = (from: string): CompiledBranch[] => branchesByNode.get(from) ?? [];
  const joinsBySource = new Map<number, CompiledJoin[]>();
  for (const join of joins) {
    for (const source of new Set(join.sources)) {
      const list = joinsBySource.get(source);
      if (list) list.push(join);
      else joinsBySource.set(source, [join]);
    }
  }
  const nodes: CompiledNode[] = names.map((nodeName, index) => {
    const node = spec.nodes.get(nodeName)!;
    const retry = resolveRetry(node.options.retry);
    return {
      name: nodeName,
      index,
      impl: node.impl,
      options: node.options,
      retry,
      concat: node.options.concat ?? concat ?? concatChunks,
      inputSchema: node.options.input,
      outputSchema: node.options.output,
      edges: edges.get(nodeName) ?? [],
      joins: joinsBySource.get(index) ?? [],
      branches: branchesOf(nodeName),
      deferred: node.options.defer === true,
    };
  });
  return {
    name,
    kind: spec.kind,
    mode,
    nodes,
    byName: new Map(nodes.map((n) => [n.name, n])),
    start: { edges: edges.get(START) ?? [], branches: branchesOf(START) },
    joins,
    state: spec.state ? compileState(spec, options.checkUpdates ?? true) : undefined,
    spec,
    hasDeferred: nodes.some((n) => n.deferred),
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
  return { keys, keySet: new Set(keys), reducers: state.reducers, defaults, checks };
}

/** A retry policy with its defaults filled in; `undefined` when there is none or it allows one attempt. */
export function resolveRetry(policy: RetryPolicy | undefined): ResolvedRetry | undefined {
  if (!policy) return undefined;
  const retry = { ...defaultRetry, ...policy };
  return retry.maxAttempts > 1 ? retry : undefined;
}
