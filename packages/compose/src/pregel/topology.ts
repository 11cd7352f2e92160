import type { ZodObject, ZodType } from 'zod';
import type { ValidationIssue } from '../errors/graph-validation-error.js';
import type { GraphAgentInfo } from '../events/node-events.js';
import type { ConcatFunction } from '../runnable/concat.js';
import type { AnyRunnable } from '../runnable/runnable.js';
import type { StateVersioning } from '../state/migration/state-migration.js';
import type { AnyReducer } from '../state/reducers.js';
import type { DataflowNodeOptions, RetryPolicy } from '../vocabulary/node-options.js';
import type { CompiledState } from './compiled-state.js';
import type { NodeContext } from './node-context.js';
import type { RunContext } from './run-context.js';
import type { RunControl } from './run-control.js';

/** Index used for END in successor lists. */
export const END_INDEX = -1;

/** A retry policy with every field filled in. */
export type ResolvedRetry = Required<Omit<RetryPolicy, 'retryOn'>> & Pick<RetryPolicy, 'retryOn'>;

/** A conditional edge, ready to run. */
export interface CompiledBranch {
  readonly from: string;
  readonly router: BranchSpec['router'];
  readonly targets: ReadonlySet<string> | undefined;
  /** A stream branch's condition, run on the node's chunks as they come (ADR 022). */
  readonly condition?: BranchSpec['router'] | undefined;
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
  /**
   * `[name]`, frozen and shared, made on first use by {@link aloneList} (compile does not pay for nodes
   * no event names): the path of this node's tasks in a root run and the task list of a step that runs it
   * alone, so the event stream does not build a one-item array per task and step.
   */
  alone: readonly string[] | undefined;
  /** `:name:`, the middle of its tasks' ids (`step:name:position`), made with the first id. */
  idPart: string | undefined;
  /** The last task id built for this node, and the prefix (its step) and position it was built for. */
  lastIdPrefix: string | number | undefined;
  lastIdPosition: number | undefined;
  lastId: string | undefined;
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
  /**
   * The successors this node's chunks stream into as they come (ADR 022; dataflow graphs), each reading
   * its own copy, in the same step in Pregel mode: planned with this node, and not sent this node's
   * output again. `undefined` when it streams into none.
   */
  readonly pipes: readonly number[] | undefined;
  /** True when a branch of this node reads its output as a stream (`addStreamBranch`). */
  readonly streamBranches: boolean;
  /** The node's state handlers (`before`, `beforeStream`, `after`, `afterStream`); `undefined` when it has none. */
  readonly handlers: NodeHandlers | undefined;
  /** Successors that receive this node's output without being triggered by it (workflow data edges). */
  readonly dataEdges: readonly number[];
}

/** A node's state handlers, as the runner calls them. */
export interface NodeHandlers {
  readonly before: ((input: unknown, state: unknown) => unknown) | undefined;
  readonly after: ((output: unknown, state: unknown) => unknown) | undefined;
  readonly afterStream:
    | ((chunks: AsyncIterable<unknown>, state: unknown) => AsyncIterable<unknown>)
    | undefined;
  readonly beforeStream:
    | ((chunks: AsyncIterable<unknown>, state: unknown) => AsyncIterable<unknown>)
    | undefined;
}

/** Everything the runtime needs, indexed for speed. Immutable once built. */
export interface Topology {
  readonly name: string;
  readonly kind: 'state' | 'dataflow';
  readonly mode: 'pregel' | 'dag';
  readonly nodes: readonly CompiledNode[];
  readonly byName: ReadonlyMap<string, CompiledNode>;
  readonly start: {
    readonly edges: readonly number[];
    readonly branches: readonly CompiledBranch[];
    readonly dataEdges: readonly number[];
  };
  readonly joins: readonly CompiledJoin[];
  readonly state: CompiledState | undefined;
  readonly spec: GraphSpec;
  /** True when some node has the `defer` option. */
  readonly hasDeferred: boolean;
  /** True when some node streams into a successor (see `CompiledNode.pipes`). */
  readonly hasPipes: boolean;
  /**
   * How many nodes read the graph's own stream input as it comes (`collect`/`transform`, see
   * `findStreamStart`); `undefined` when that input is joined before the run.
   */
  readonly streamStart: number | undefined;
  /** True when some node has a stream branch (see `CompiledNode.streamBranches`). */
  readonly hasStreamBranches: boolean;
  /** Creates the graph's local state at the start of each run (`new Graph({ localState })`). */
  readonly localState: (() => unknown) | undefined;
  /** How a dataflow graph's output is built from what reached END (a workflow's END mappings). */
  readonly end: Pick<CompiledNode, 'name' | 'options'> | undefined;
  /** The agent the graph runs (`compile({ agent })`), reported on its run's events. */
  readonly agent: GraphAgentInfo | undefined;
  /** The state version its checkpoints are written at, and migrations from older ones (`compile({ stateVersion })`). */
  readonly versioning: StateVersioning;
}

const defaultRetry = {
  maxAttempts: 3,
  initialDelayMs: 100,
  backoffFactor: 2,
  maxDelayMs: 10_000,
  jitter: true,
};

/** A retry policy with its defaults filled in; `undefined` when there is none or it allows one attempt. */
export function resolveRetry(policy: RetryPolicy | undefined): ResolvedRetry | undefined {
  if (!policy) return undefined;
  const retry = { ...defaultRetry, ...policy };
  return retry.maxAttempts > 1 ? retry : undefined;
}

/** A node's implementation, as the builder received it. */
export type NodeImpl =
  | { readonly kind: 'function'; readonly fn: (input: never, ctx: never) => unknown }
  | { readonly kind: 'runnable'; readonly runnable: AnyRunnable }
  | { readonly kind: 'subgraph'; readonly graph: SubgraphHandle };

/** What the runtime needs of a compiled graph used as a node. */
export interface SubgraphHandle {
  readonly name: string;
  readonly spec: GraphSpec;
  /** The compiled graph's JSON topology (nested into the parent's `toJSON()`). */
  toJSON(): unknown;
  /** Runs the graph as a task of a parent run (shares its events, signal and config). */
  runNested(input: unknown, parent: NestedRunParent): Promise<unknown>;
  /** What reading its checkpoints through the parent needs (`getState({ subgraphs })`, `ns` options). */
  nestedState?(): NestedStateView;
}

/** A nested graph's topology and whether it keeps one namespace per node (`checkpointer: true`). */
export interface NestedStateView {
  readonly topology: Topology;
  readonly keepsState: boolean;
}

/** The parent task a nested graph runs under. */
export interface NestedRunParent {
  readonly run: RunContext;
  readonly ctx: NodeContext;
  /** What aborts the nested run: the task's signal, or its run's control (no `AbortSignal` made). */
  readonly signal: AbortSignal | RunControl;
  /**
   * Set by `ctx.runSubgraph`: names the nested run within its task (its checkpoint namespace is
   * `node:taskId:key`), and the run returns the nested graph's output instead of its writes.
   */
  readonly key?: string;
  /** Values merged over the run's `config` for the nested run (`ctx.runSubgraph`). */
  readonly config?: Readonly<Record<string, unknown>>;
}

/** A node as declared. */
export interface NodeSpec {
  readonly name: string;
  readonly impl: NodeImpl;
  readonly options: DataflowNodeOptions;
}

/** A router: chooses the next node(s) from a node's output (dataflow) or the state (state graphs). */
export type RouterFunction = (value: never, ctx: never) => unknown;

/** A conditional edge as declared. */
export interface BranchSpec {
  readonly from: string;
  readonly router: RouterFunction;
  /** The targets the router may return; `undefined` when not declared (any node). */
  readonly targets: readonly string[] | undefined;
  /**
   * A stream branch (`addStreamBranch`): the condition reading the node's output as a stream. `router`
   * then gives it the whole output as one chunk (when no stream was read live).
   */
  readonly condition?: RouterFunction;
}

/** One declared workflow input (`addInput`, `addDependency`...), as `toJSON()` draws it. */
export interface WiringSpec {
  readonly from: string;
  readonly to: string;
  /** True when `from` triggers `to` (a control edge). */
  readonly direct: boolean;
  /** The field mappings it carries; none for a dependency (control only). */
  readonly mappings: ReadonlyArray<{ readonly from: string; readonly to: string }>;
}

/** The state of a state graph: its schema and per-key reducers. */
export interface StateSpec {
  readonly schema: ZodObject;
  readonly reducers: Readonly<Record<string, AnyReducer | undefined>>;
}

/** The complete, builder-independent description of a graph: what `compile()` turns into a runtime. */
export interface GraphSpec {
  readonly kind: 'state' | 'dataflow';
  readonly nodes: ReadonlyMap<string, NodeSpec>;
  readonly edges: ReadonlyArray<{ readonly from: string; readonly to: string }>;
  readonly joins: ReadonlyArray<{ readonly sources: readonly string[]; readonly to: string }>;
  /**
   * Data-only edges (workflows, Eino's `WithNoDirectDependency`): `to` receives `from`'s output but is
   * not triggered by it; a path of ordinary edges must lead from `from` to `to`. DAG mode only.
   */
  readonly dataEdges?: ReadonlyArray<{ readonly from: string; readonly to: string }>;
  /**
   * A workflow's wiring as declared (for drawing only, `toJSON()`): per input, whether it triggers its
   * target (`direct`) and the field mappings it carries (dotted paths, `''` for the whole value).
   */
  readonly wiring?: ReadonlyArray<WiringSpec> | undefined;
  /** Builds a dataflow graph's output from what reached END (a workflow's END mappings; DAG mode). */
  readonly endMerge?: ((inputs: readonly unknown[], sources: readonly string[]) => unknown) | undefined;
  /** Creates a dataflow graph's local state at the start of each run (`new Graph({ localState })`). */
  readonly localState?: (() => unknown) | undefined;
  readonly branches: readonly BranchSpec[];
  readonly state: StateSpec | undefined;
  /**
   * The input schema given to the builder (`options.input`). A state graph without one checks its input
   * against `updateSchemaOf(spec.state, z)`: every key optional, reducer keys take their update.
   */
  readonly inputSchema: ZodType | undefined;
  readonly outputSchema: ZodType | undefined;
  /** Problems found while building (reported by `compile()` together with its own). */
  readonly issues: readonly ValidationIssue[];
  /** Set for a functional-API entrypoint: its runs take and return one value instead of state. */
  readonly io?: GraphIO | undefined;
}

/**
 * How a state graph whose runs take and return one value (a functional-API entrypoint) maps that value
 * to and from its state. Read only where a run starts or shows its result, never per step.
 */
export interface GraphIO {
  /** The state update a run's input stands for. */
  readonly toState: (input: unknown) => Record<string, unknown>;
  /** The value the state stands for: `invoke`'s result, `getState().values`, the `values` stream. */
  readonly fromState: (values: Readonly<Record<string, unknown>>) => unknown;
  /** Whether the `values` stream shows this state (not before the entrypoint returned in this turn). */
  readonly shows: (values: Readonly<Record<string, unknown>>) => boolean;
  /** What the `updates` stream shows for a node's write (the entrypoint's: its return value). */
  readonly fromUpdate: (node: string, update: unknown) => unknown;
  /** The tasks the entrypoint declared it calls, for drawings. */
  readonly tasks: readonly string[];
}

/**
 * The node's shared frozen `[name]` list ({@link CompiledNode.alone}), made the first time it is asked for.
 *
 * @example
 * const node = { name: 'agent', alone: undefined };
 * aloneList(node) === aloneList(node); // the same frozen list every time
 */
export function aloneList(node: {
  readonly name: string;
  alone: readonly string[] | undefined;
}): readonly string[] {
  if (node.alone === undefined) node.alone = Object.freeze([node.name]);
  return node.alone;
}
