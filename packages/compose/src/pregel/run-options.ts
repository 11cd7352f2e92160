import type { EffectFence } from '../effects/effect-fence.js';
import type { Callbacks } from '../events/callbacks.js';
import type { RunSubscriber } from '../events/run-subscriber.js';
import type { Store } from '../store/store.js';

/** Call options for one node (`ctx.options`): what the node understands, e.g. `{ temperature: 0 }`. */
export type NodeCallOptions = Readonly<Record<string, unknown>>;

/**
 * Call options by node: a node name of the graph being run, or a path into its subgraphs joined by `/`
 * (`'team/researcher/model'`). Typed with the graph's node names where they are known.
 */
export type NodeOptionsByName<TNodes extends string = string> = {
  readonly [K in TNodes]?: NodeCallOptions;
} & { readonly [path: `${string}/${string}`]: NodeCallOptions };

/** A run's call options, indexed for lookup by node path and kind (see `callOptionsOf`). */
export interface CallOptionsRouting {
  /** By node path from the graph being run, segments joined by `/`. */
  readonly byPath: ReadonlyMap<string, NodeCallOptions>;
  /** By the `kind` node option. */
  readonly byKind: ReadonlyMap<string, NodeCallOptions>;
}

/** Options of `invoke`, `stream`, `collect`, `transform` and `batch` on a compiled graph. */
export interface RunOptions<TNodes extends string = string> {
  /**
   * Call options routed to single nodes, by name or by path into subgraphs (`'sub/agent/model'`); the
   * node reads them as `ctx.options`, no other node sees them (Eino's `WithChatModelOption(...)
   * .DesignateNode(...)`). A name or path that names no node is an `INVALID_ARGUMENT` error.
   */
  readonly nodeOptions?: NodeOptionsByName<TNodes>;
  /**
   * Call options for every node of a kind (the `kind` node option: `model`, `tools`...), nested graphs
   * included. Where both apply, `nodeOptions` fields win over `kindOptions` fields.
   */
  readonly kindOptions?: Readonly<Record<string, NodeCallOptions>>;
  /** Cancels the run: running nodes see `ctx.signal` fire, nothing new starts, the call rejects. */
  readonly signal?: AbortSignal;
  /** User values passed to every node as `ctx.config`. */
  readonly config?: Readonly<Record<string, unknown>>;
  /** The long-term store nodes see as `ctx.store` (overrides the compile option). */
  readonly store?: Store;
  /** Supersteps allowed for this run (overrides the compile option; default 25). */
  readonly maxSteps?: number;
  /** Subscribers of the run's events (their errors never fail the run). */
  readonly callbacks?: Callbacks;
  /**
   * A subscriber the run waits for: a node reporting an event goes on once it settled (see
   * {@link RunSubscriber}); its rejection fails the run.
   */
  readonly observe?: RunSubscriber;
  /** Tasks that may run at once within one step (default: unlimited). */
  readonly concurrency?: number;
  /** The conversation/job thread; required with a checkpointer. */
  readonly threadId?: string;
  /** Continue from this checkpoint of the thread instead of the latest. */
  readonly checkpointId?: string;
  /** An id for this run (default: generated). */
  readonly runId?: string;
  /** When checkpoints reach the store (overrides the compile option; default `sync`). */
  readonly durability?: 'sync' | 'async' | 'exit';
  /**
   * Which tasks store their writes as soon as they finish: `parallel` (default: tasks of steps with
   * several tasks, so a pause or crash never re-runs a finished sibling) or `all` (every task, so a
   * failed checkpoint write never re-runs it either, at one extra store write per step — what workers
   * use). The step's checkpoint is put beside these writes, not after them (a group-committing store
   * takes both in one commit); the step counts as durable once both are stored.
   */
  readonly taskWrites?: 'parallel' | 'all';
  /** Pause before these nodes run (overrides the compile option). */
  readonly interruptBefore?: readonly string[];
  /** Pause after these nodes run (overrides the compile option). */
  readonly interruptAfter?: readonly string[];
  /**
   * What this run must still hold for its effects (`ctx.effect`) to be recorded: checked before each
   * effect's record is stored, so a run that lost its thread (a worker whose lease another worker
   * took) fails its effect with `EFFECT_FENCED` instead of recording it. Workers pass their lease.
   */
  readonly fence?: EffectFence;
}
