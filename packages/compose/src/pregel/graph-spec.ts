import type { ZodObject, ZodType } from 'zod';
import type { ValidationIssue } from '../errors/graph-validation-error.js';
import type { AnyRunnable } from '../runnable/runnable.js';
import type { AnyReducer } from '../state/reducers.js';
import type { DataflowNodeOptions } from '../vocabulary/node-options.js';
import type { NodeContext } from './node-context.js';
import type { RunContext } from './run-context.js';
import type { Topology } from './topology.js';

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
  readonly signal: AbortSignal;
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
