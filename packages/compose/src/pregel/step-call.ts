import type { StreamPipe } from '../stream/stream-pipe.js';
import type { RunContext } from './run-context.js';
import type { Task } from './task.js';
import type { ResumeValues } from './task-context.js';
import type { Topology } from './topology.js';

/** What one step runs. */
export interface StepCall {
  readonly run: RunContext;
  readonly topology: Topology;
  readonly tasks: readonly Task[];
  readonly step: number;
  /** The state at the start of the step (state graphs), shared read-only by every task. */
  readonly values: unknown;
  /** Outputs already known (tasks that finished before a pause); those tasks are not run again. */
  readonly known?: ReadonlyMap<number, unknown> | undefined;
  readonly resume?: ((task: Task) => ResumeValues | undefined) | undefined;
  /** `ctx.once` results of tasks that paused, by task (see `NodeContext.once`). */
  readonly memo?: ((task: Task) => ReadonlyMap<string, unknown> | undefined) | undefined;
  /** Called as each task finishes, in finish order (used to save task writes). */
  readonly onTaskDone?: ((index: number, output: unknown) => Promise<void> | undefined) | undefined;
  /** Aborts the step's other tasks when one fails. */
  readonly fail: (error: unknown) => void;
  /** Told which task failed first, before `fail` aborts its siblings (to put the failure on record). */
  readonly onTaskFailed?: ((index: number, error: unknown) => void) | undefined;
  /** The step's start time when events are watched (the first task starts then too). */
  readonly startedAt?: number | undefined;
  /**
   * Shows a task's write to `updates` subscribers the moment it finishes (known outputs first, at the
   * step's start), before `onTaskDone`; a promise when the subscriber makes the task wait.
   */
  readonly showTask?: ((index: number, output: unknown) => Promise<void> | undefined) | undefined;
  /** Given when the graph has stream branches: receives their early decisions by task position. */
  readonly decisions?: Array<ReadonlyArray<Promise<unknown> | undefined> | undefined> | undefined;
}

/** Where a piped task reads its input (ADR 022): the pipe, and the live producer's task id. */
export interface PipeSource {
  readonly pipe: StreamPipe;
  readonly from: string | undefined;
}
