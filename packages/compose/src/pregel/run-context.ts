import type { NodeCache } from '../cache/node-cache.js';
import type { TaskWrite } from '../checkpoint/checkpoint-body.js';
import type { Checkpointer } from '../checkpoint/checkpointer.js';
import type { EffectFence } from '../effects/effect-fence.js';
import type { EffectFencing } from '../effects/effect-recorder.js';
import type { RunEvent } from '../events/run-event.js';
import type { UsageTally } from '../events/usage-tally.js';
import type { Store } from '../store/store.js';
import type { CompiledState } from './compiled-state.js';
import type { RunControl } from './run-control.js';
import type { CallOptionsRouting } from './run-options.js';

/**
 * Optional listeners of one run. Each is `undefined` unless someone subscribed, and the engine checks
 * before building anything for it: a run nobody watches allocates no event objects.
 */
export interface RunObserver {
  /** Every event (the `events` stream mode and callbacks). */
  readonly event?: ((event: RunEvent) => void) | undefined;
  /** State after each step (`values` mode); may return a promise to apply backpressure. */
  readonly values?: ((values: unknown, path: readonly string[]) => Promise<void> | undefined) | undefined;
  /** Each node's write (`updates` mode). */
  readonly updates?:
    | ((node: string, update: unknown, path: readonly string[]) => Promise<void> | undefined)
    | undefined;
  /** Chunks of streaming nodes (`messages` mode). */
  readonly chunk?:
    | ((node: string, chunk: unknown, path: readonly string[], agent?: string) => Promise<void> | undefined)
    | undefined;
  /** Values nodes send with `ctx.emit` (`custom` mode). */
  readonly custom?: ((node: string, data: unknown, path: readonly string[]) => void) | undefined;
  /**
   * Called once per step (once per node in DAG mode) by a consumer of events pushed synchronously
   * (`events`, `custom`): a promise makes the run wait there until the consumer catches up.
   */
  readonly pace?: (() => Promise<void> | undefined) | undefined;
}

/** Checkpointing context a run passes to its nested subgraphs. */
export interface DurableContext {
  readonly checkpointer: Checkpointer;
  readonly threadId: string;
  /** Namespace of the graph being run (`''` for the root). */
  readonly ns: string;
  readonly durability: 'sync' | 'async' | 'exit';
  /** Resume values for pending interrupts anywhere in the run, by interrupt id. */
  readonly resumeById: ReadonlyMap<string, unknown>;
  /** Checkpoint ids of enclosing graphs, by namespace. */
  readonly parents: Readonly<Record<string, string>>;
  /** Which finished tasks store their writes before their step's checkpoint. */
  readonly taskWrites?: 'parallel' | 'all' | undefined;
  /** The latest checkpoint id of the graph being run (updated as it runs). */
  readonly currentId: () => string | undefined;
  /**
   * Stores one task write against the current checkpoint, in order with the run's other writes (held
   * until the run ends with `exit` durability); resolves when it is stored. Used for the results of
   * functional-API task calls, which must outlive a crash of the task that made them.
   *
   * @throws SerializationError when the write cannot be stored.
   */
  readonly putWrite?: ((taskId: string, write: TaskWrite) => Promise<void> | undefined) | undefined;
  /**
   * Stores an effect's record (a `call` write) against the current checkpoint at once, whatever the
   * durability, in order with the run's other writes, and only while the fence holds; resolves when it
   * is stored (see `ctx.effect`).
   *
   * @throws WeftError `EFFECT_FENCED` when the fence no longer holds; SerializationError when the
   *   result cannot be stored.
   */
  readonly recordEffect?:
    | ((taskId: string, write: TaskWrite, fenced: EffectFencing) => Promise<void>)
    | undefined;
}

/** What every task and nested subgraph of one run shares. */
export interface RunContext {
  readonly runId: string;
  /**
   * Counts the run's model calls for `run-end`'s `usageTotals` when its events are watched (nested runs
   * share their root's). A node's `ctx.report` hands it each `model-call` it reports, so the engine's
   * own events pass no check on their way to the listener.
   */
  readonly usage?: UsageTally | undefined;
  /** Node path of the graph being run (`[]` for the root graph). */
  readonly path: readonly string[];
  /**
   * For a nested graph: the enclosing task it runs in, the key it was run with (if any), and its
   * scope (what its events carry as `scope`; see `nestedScope`).
   */
  readonly owner?:
    | { readonly taskId: string; readonly key?: string | undefined; readonly scope: string }
    | undefined;
  /** Cancellation of the run (cancelled by the caller, or a sibling task failed); its signal is lazy. */
  readonly control: RunControl;
  readonly config: Readonly<Record<string, unknown>>;
  /** The long-term store nodes see as `ctx.store`. */
  readonly store?: Store | undefined;
  /** Where nodes with a `cachePolicy` keep their results (`compile({ cache })`). */
  readonly cache?: NodeCache | undefined;
  readonly threadId: string | undefined;
  readonly observer: RunObserver;
  /** Supersteps allowed in this run. */
  readonly maxSteps: number;
  /** Tasks that may run at once within one step. */
  readonly concurrency: number;
  /** The kind of graph this context runs (nested graphs get their own context). */
  readonly kind: 'state' | 'dataflow';
  /** The nodes of the graph this context runs, by name (what a subgraph's `Command.PARENT` may route to). */
  readonly nodes?: ReadonlyMap<string, unknown> | undefined;
  /** The state channels of the graph this context runs (state graphs): what a nested graph may update. */
  readonly state?: CompiledState | undefined;
  /** Deep-freeze the state handed to nodes (the `freezeState` compile option; state graphs). */
  readonly freezeState?: boolean | undefined;
  /** Set when the run checkpoints. */
  readonly durable?: DurableContext | undefined;
  /** Call options routed to nodes (`nodeOptions`, `kindOptions`); `undefined` when the run has none. */
  readonly callOptions?: CallOptionsRouting | undefined;
  /** The local state of the graph this context runs (`new Graph({ localState })`), one per run. */
  readonly localState?: unknown;
  /** Aborts the whole run (used when a task fails, so its siblings stop). */
  readonly abort: (reason: unknown) => void;
  /** What the run must still hold for its effects to be recorded (`RunOptions.fence`). */
  readonly fence?: EffectFence | undefined;
}

/**
 * A run context with every field in one order, built at this one site: every context of every run
 * (root, durable, nested) then shares one hidden class, so the engine's per-step reads of `run.observer`,
 * `run.control` or `run.maxSteps` stay monomorphic. A spread of another context plus a field
 * (`{ ...run, durable }`) made a new hidden class for each run instead, and every such read went
 * megamorphic.
 */
export function runContext(fields: RunContext): RunContext {
  return {
    runId: fields.runId,
    usage: fields.usage,
    path: fields.path,
    owner: fields.owner,
    control: fields.control,
    config: fields.config,
    store: fields.store,
    cache: fields.cache,
    threadId: fields.threadId,
    observer: fields.observer,
    maxSteps: fields.maxSteps,
    concurrency: fields.concurrency,
    kind: fields.kind,
    nodes: fields.nodes,
    state: fields.state,
    freezeState: fields.freezeState,
    durable: fields.durable,
    callOptions: fields.callOptions,
    localState: fields.localState,
    abort: fields.abort,
    fence: fields.fence,
  };
}

/**
 * A run observer with its six listeners in one order, built at this one site (an unwanted listener is
 * `undefined`): every observer of every run — a plain invoke's, a stream's for any set of modes, one
 * with callbacks or `observe`, a nested run's — shares one hidden class, so the engine's per-step
 * `run.observer.event` or `run.observer.updates` reads stay monomorphic.
 */
export function runObserver(listeners: RunObserver): RunObserver {
  return {
    event: listeners.event,
    values: listeners.values,
    updates: listeners.updates,
    chunk: listeners.chunk,
    custom: listeners.custom,
    pace: listeners.pace,
  };
}

/** The observer of a run nobody watches: every listener `undefined`. */
export const UNWATCHED: RunObserver = runObserver({});
