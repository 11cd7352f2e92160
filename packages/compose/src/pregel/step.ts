import { WeftError } from '../errors/weft-error.js';
import { isPromiseLike } from '../runnable/runnable.js';
import { runCachedTask } from './cached-task.js';
import { ParentCommand } from './parent-command.js';
import type { RunContext } from './run-context.js';
import { executeTask } from './runner.js';
import type { Task } from './task.js';
import type { ResumeValues } from './task-context.js';
import type { CompiledNode, Topology } from './topology.js';

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
  /** When given, receives the position of each task as it finishes (known outputs first). */
  readonly finishOrder?: number[] | undefined;
}

/**
 * Runs the tasks of one superstep concurrently (up to `run.concurrency` at once) and returns their
 * outputs in task order. Synchronous nodes complete without a promise; the step only awaits when a
 * task is asynchronous. If a task fails, the others are aborted and the step rejects with that error.
 */
export function runStep(call: StepCall): unknown[] | Promise<unknown[]> {
  const { tasks } = call;
  const outputs: unknown[] = new Array(tasks.length);
  if (tasks.length > call.run.concurrency) return runPooled(call, outputs);
  let pending: Array<PromiseLike<void>> | undefined;
  try {
    for (let i = 0; i < tasks.length; i++) {
      const result = start(call, i, outputs);
      if (result) (pending ??= []).push(result);
    }
  } catch (error) {
    for (const started of pending ?? []) started.then(undefined, ignore);
    throw error;
  }
  if (!pending) return outputs;
  return settle(pending, call).then(() => outputs);
}

function start(call: StepCall, i: number, outputs: unknown[]): PromiseLike<void> | undefined {
  const task = call.tasks[i] as Task;
  if (call.known?.has(i)) {
    outputs[i] = call.known.get(i);
    call.finishOrder?.push(i);
    return undefined;
  }
  const node = call.topology.nodes[task.node] as CompiledNode;
  let result: unknown;
  try {
    const taskCall = {
      run: call.run,
      node,
      input: task.hasInput ? task.input : call.values,
      step: call.step,
      taskId: task.id,
      resume: call.resume?.(task),
      memo: call.memo?.(task),
      startedAt: i === 0 ? call.startedAt : undefined,
    };
    const cache = call.run.cache;
    result =
      cache && node.options.cachePolicy
        ? runCachedTask(taskCall, cache, call.topology.name)
        : executeTask(taskCall);
  } catch (error) {
    failed(call, i, error);
    throw error;
  }
  if (isPromiseLike(result)) {
    return result.then(
      (value) => {
        outputs[i] = value;
        call.finishOrder?.push(i);
        return call.onTaskDone?.(i, value);
      },
      (error: unknown) => {
        failed(call, i, error);
        throw error;
      },
    );
  }
  outputs[i] = result;
  call.finishOrder?.push(i);
  return call.onTaskDone?.(i, result);
}

/** A task failed: the first failure of the step is reported, then the run is aborted. */
function failed(call: StepCall, i: number, error: unknown): void {
  if (!call.run.control.aborted && !(error instanceof ParentCommand)) call.onTaskFailed?.(i, error);
  call.fail(error);
}

async function settle(pending: ReadonlyArray<PromiseLike<void>>, call: StepCall): Promise<void> {
  const { control } = call.run;
  if (control.aborted) throw control.reason;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = control.onAbort((reason) => reject(reason));
  });
  try {
    await Promise.race([Promise.all(pending), aborted]);
  } finally {
    onAbort?.();
  }
}

/**
 * Checks the `concurrency` run option (0 or less would otherwise run nothing and succeed).
 *
 * @throws WeftError `INVALID_ARGUMENT` unless it is at least 1.
 */
export function checkConcurrency(limit: number): void {
  if (!(limit >= 1)) {
    throw new WeftError(
      'INVALID_ARGUMENT',
      `concurrency must be at least 1 (or left out for no limit), got ${limit}`,
    );
  }
}

async function runPooled(call: StepCall, outputs: unknown[]): Promise<unknown[]> {
  checkConcurrency(call.run.concurrency);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < call.tasks.length) {
      if (call.run.control.aborted) throw call.run.control.reason;
      const result = start(call, next++, outputs);
      if (result) await result;
    }
  };
  const workers: Array<Promise<void>> = [];
  for (let w = 0; w < call.run.concurrency; w++) workers.push(worker());
  await settle(workers, call);
  return outputs;
}

function ignore(): void {}
