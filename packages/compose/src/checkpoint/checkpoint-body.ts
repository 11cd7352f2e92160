import type { PendingInterrupt } from '../pregel/task.js';

/** A planned task as stored in a checkpoint. */
export interface StoredTask {
  readonly id: string;
  readonly node: string;
  /** Present for sends and dataflow nodes (state graph trigger tasks read the state). */
  readonly input?: unknown;
  /** A node a stream flows into: the position of the task whose output is its input (ADR 022). */
  readonly pipedFrom?: number;
}

/** Routing state carried between steps (join barriers, dataflow inboxes, held deferred nodes). */
export interface StoredRouting {
  readonly barriers: ReadonlyArray<readonly [joinId: number, sources: readonly string[]]>;
  readonly inbox: ReadonlyArray<
    readonly [
      target: string,
      entry: { readonly sources: readonly string[]; readonly values: readonly unknown[] },
    ]
  >;
  readonly deferred: readonly string[];
}

/**
 * The serialized body of a checkpoint. A base checkpoint holds the full `values`; every other one
 * holds only the channel `writes` applied over its parent, which replay through the graph's reducers.
 */
export interface CheckpointBody {
  readonly v: 1;
  /** Full state values (base checkpoints only). */
  readonly values?: Readonly<Record<string, unknown>>;
  /** Channel writes of this step, per node, in task order. */
  readonly writes: ReadonlyArray<
    readonly [node: string, entries: ReadonlyArray<readonly [key: string, value: unknown]>]
  >;
  /** Tasks of the next step (empty when the run finished). */
  readonly next: readonly StoredTask[];
  readonly routing: StoredRouting;
  /** Interrupts of static breakpoints that stopped the run here. */
  readonly breakpoints?: readonly PendingInterrupt[];
  /** Bytes and count of delta checkpoints since the base (drives the snapshot policy). */
  readonly sinceBase: { readonly bytes: number; readonly count: number };
}

/** A failed task's error as stored and shown by `getState` (the node's own error, not the wrapper). */
export interface TaskErrorInfo {
  readonly name: string;
  readonly message: string;
  /** The error's `code` when it has a string one, else the failure's (`NODE_FAILED`, `NODE_TIMEOUT`). */
  readonly code: string;
}

/**
 * What `putWrites` stores for one task: its output, the pause it raised, or the error it failed with; or,
 * under an id of its own, the result of one call a task made (a functional-API `task()` called from an
 * entrypoint), kept so that re-running the task (after a pause or a crash) skips that call.
 */
export type TaskWrite =
  | {
      readonly kind: 'output';
      readonly node: string;
      readonly output: unknown;
      /**
       * The pause this output answered, when the task resumed from a pause stored against the same
       * checkpoint (it replaces that write): a fork from the checkpoint that answers anew asks it again.
       */
      readonly answered?: PausedWrite;
    }
  | {
      readonly kind: 'call';
      readonly node: string;
      /** The task that made the call (the id its own writes are stored under). */
      readonly owner: string;
      /** The `ctx.once` key the call's result is remembered under within its owner. */
      readonly key: string;
      readonly output: unknown;
    }
  | { readonly kind: 'error'; readonly node: string; readonly error: TaskErrorInfo }
  | {
      readonly kind: 'paused';
      readonly node: string;
      readonly interrupts: readonly PendingInterrupt[];
      /**
       * Resume values already given to this task's `interrupt()` calls, by call position (a string
       * position for an `interrupt()` inside a functional-API task call, scoped by that call).
       */
      readonly resumed: ReadonlyArray<readonly [index: number | string, value: unknown]>;
      /** What the task's `ctx.once` calls remembered before the pause, by key (absent when none). */
      readonly memo?: ReadonlyArray<readonly [key: string, value: unknown]>;
    };

/** The write of a task that paused (see {@link TaskWrite}). */
export type PausedWrite = Extract<TaskWrite, { readonly kind: 'paused' }>;
