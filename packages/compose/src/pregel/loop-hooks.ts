import type { AppliedStep, NodeNames } from './apply.js';
import type { Finished, RoutingState } from './plan.js';
import type { RunContext } from './run-context.js';
import type { PendingInterrupt, Task } from './task.js';
import type { ResumeValues } from './task-context.js';
import type { Topology } from './topology.js';

/**
 * The state of a loop that a checkpoint persists: the step, the state values, the routing (dataflow
 * inboxes, deferred nodes) and the tasks planned next.
 */
export interface LoopSnapshot {
  readonly step: number;
  readonly values: Record<string, unknown>;
  readonly routing: RoutingState;
  readonly tasks: readonly Task[];
}

/**
 * What {@link LoopView.restore} sets before a loop runs (each field optional): a snapshot's fields, and
 * for a continued step what it already knows — outputs of tasks that finished before a pause, resume values
 * and `ctx.once` results by task id, whether the before-breakpoint was passed, the checkpoint continued from.
 */
export interface LoopRestore extends Partial<LoopSnapshot> {
  readonly known?: Map<number, unknown> | undefined;
  readonly resume?: ReadonlyMap<string, ResumeValues> | undefined;
  readonly memo?: ReadonlyMap<string, ReadonlyMap<string, unknown>> | undefined;
  readonly skipBefore?: boolean;
  readonly checkpointId?: string | undefined;
}

/**
 * A running loop as its hooks, its helpers and `checkpoint/` see it (`LoopView` implements it): read-only
 * state, `snapshot()` to persist it and `restore()` the one way to change it from outside.
 *
 * @example
 * ```ts
 * const hooks: LoopHooks = {
 *   afterStep: (loop) => void console.log(loop.step, loop.snapshot().tasks.length),
 * };
 * ```
 */
export interface LoopView {
  readonly topology: Topology;
  readonly run: RunContext;
  readonly hooks: LoopHooks;
  /** The step about to run (or, inside `afterStep`, the step just completed). */
  readonly step: number;
  readonly values: Record<string, unknown>;
  readonly tasks: readonly Task[];
  readonly routing: RoutingState;
  /** Outputs of tasks that finished in a step that then paused, by task position (not run again). */
  readonly known: ReadonlyMap<number, unknown> | undefined;
  /** Writes made by this graph's nodes, in order (kept for nested state graphs). */
  readonly writes: Array<readonly [string, unknown]> | undefined;
  /** What routers read: the state (state graphs) or the finished task's output (dataflow graphs). */
  readonly routerInput: (item: Finished) => unknown;
  snapshot(): LoopSnapshot;
  restore(state: LoopRestore): void;
  /** The tasks planned for the next step (the hot path's monomorphic `restore({ tasks })`). */
  planned(tasks: readonly Task[]): void;
  /**
   * Moves on to the next step (the hot path's `restore({ step: step + 1 })`). `endedAt` is the time the
   * step's `step-end` event carries (0 when nobody watches events): the next step's `step-start` reuses
   * that clock read when the loop goes on without awaiting in between.
   */
  stepDone(endedAt: number): void;
  /** The run's result so far: the state, or what reached END. */
  output(): unknown;
  /** The prefix of the ids of the tasks planned next. */
  prefix(): string | number;
  /** Applies writes to the state and keeps the result. */
  applyState(names: NodeNames, outputs: readonly unknown[]): AppliedStep;
  /** Resume values the last step gave a task (saved with its pause so they are not asked again). */
  resumedFor(taskId: string): ResumeValues | undefined;
  /** Takes the running step's stream-branch decisions by task position (ADR 022), if any. */
  takeDecisions(): ReadonlyArray<ReadonlyArray<Promise<unknown> | undefined> | undefined> | undefined;
}

/** How a run of the loop ended. */
export interface LoopResult {
  readonly status: 'done' | 'interrupted';
  /** State (state graphs) or the value that reached END (dataflow graphs). */
  readonly output: unknown;
  readonly interrupts: readonly PendingInterrupt[];
  readonly steps: number;
}

/** Hooks the durability layer attaches to a loop (checkpoints, task writes). All optional. */
export interface LoopHooks {
  /** After the input was applied and after every completed step (the loop's `step` is that step). */
  readonly afterStep?: (loop: LoopView, record: StepRecord) => Promise<void> | undefined;
  /** A task of a step with several tasks finished (before the step completes). */
  readonly taskDone?: (loop: LoopView, task: Task, output: unknown) => Promise<void> | undefined;
  /** A task failed (the step's first failure, after its retries), before its siblings are aborted. */
  readonly taskFailed?: (loop: LoopView, task: Task, error: unknown) => void;
  /** The step paused (a node interrupted, or a breakpoint): outputs by task position and the interrupts. */
  readonly paused?: (
    loop: LoopView,
    outputs: readonly unknown[],
    interrupts: readonly PendingInterrupt[],
  ) => Promise<void>;
  /** The prefix of the ids of the tasks planned next (default: the next step number). */
  readonly taskPrefix?: (loop: LoopView) => string;
}

/** What one completed step wrote (input for checkpoints). */
export interface StepRecord {
  /** Node name (or START) and its normalized write, in task order; tasks that wrote nothing are absent. */
  readonly writes: ReadonlyArray<readonly [node: string, update: unknown]>;
  readonly changed: readonly string[];
}
