import type { PregelLoop } from './loop.js';
import type { PendingInterrupt, Task } from './task.js';

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
  readonly afterStep?: (loop: PregelLoop, record: StepRecord) => Promise<void> | undefined;
  /** A task of a step with several tasks finished (before the step completes). */
  readonly taskDone?: (loop: PregelLoop, task: Task, output: unknown) => Promise<void> | undefined;
  /** A task failed (the step's first failure, after its retries), before its siblings are aborted. */
  readonly taskFailed?: (loop: PregelLoop, task: Task, error: unknown) => void;
  /** The step paused (a node interrupted, or a breakpoint): outputs by task position and the interrupts. */
  readonly paused?: (
    loop: PregelLoop,
    outputs: readonly unknown[],
    interrupts: readonly PendingInterrupt[],
  ) => Promise<void>;
  /** The prefix of the ids of the tasks planned next (default: the next step number). */
  readonly taskPrefix?: (loop: PregelLoop) => string;
}

/** What one completed step wrote (input for checkpoints). */
export interface StepRecord {
  /** Node name (or START) and its normalized write, in task order; tasks that wrote nothing are absent. */
  readonly writes: ReadonlyArray<readonly [node: string, update: unknown]>;
  readonly changed: readonly string[];
}
