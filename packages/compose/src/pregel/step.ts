import { WeftError } from '../errors/weft-error.js';
import { isPromiseLike } from '../runnable/runnable.js';
import { writerOf } from '../stream/stream-fan-out.js';
import { type PipeWriter, StreamPipe } from '../stream/stream-pipe.js';
import { StreamedInput } from '../stream/streamed-input.js';
import { runCachedTask } from './cached-task.js';
import { ParentCommand } from './parent-command.js';
import { executeTask, type TaskCall } from './runner.js';
import type { PipeSource, StepCall } from './step-call.js';
import { PlainTaskCall, streamingCall } from './step-task-call.js';
import type { Task } from './task.js';
import type { CompiledNode } from './topology.js';

/** One step in progress (one per step, shared by its tasks): the call, its outputs, its pipes. */
interface StepRun {
  readonly call: StepCall;
  /** Task outputs by position, filled as tasks finish. */
  readonly outputs: unknown[];
  /** Producer position → the positions of the tasks reading its stream, when the graph has pipes. */
  readonly consumers: ReadonlyMap<number, readonly number[]> | undefined;
}

/**
 * Runs the tasks of one superstep concurrently (up to `run.concurrency` at once) and returns their
 * outputs in task order. Synchronous nodes complete without a promise; the step only awaits when a
 * task is asynchronous. If a task fails, the others are aborted and the step rejects with that error.
 */
export function runStep(call: StepCall): unknown[] | Promise<unknown[]> {
  const { tasks } = call;
  const outputs: unknown[] = new Array(tasks.length);
  const consumers = call.topology.hasPipes ? consumersOf(tasks) : undefined;
  const step: StepRun = { call, outputs, consumers };
  if (tasks.length > call.run.concurrency) return runPooled(step);
  let pending: Array<PromiseLike<void>> | undefined;
  try {
    for (let i = 0; i < tasks.length; i++) {
      // A piped task starts with its producer (see `start`).
      if (consumers && (tasks[i] as Task).pipedFrom !== undefined) continue;
      const result = start(step, i);
      if (result) (pending ??= []).push(result);
    }
  } catch (error) {
    for (const started of pending ?? []) started.then(undefined, ignore);
    throw error;
  }
  if (!pending) return outputs;
  return settle(pending, call).then(() => outputs);
}

/** Producer position → the positions of the tasks its chunks stream into, in one step. */
function consumersOf(tasks: readonly Task[]): Map<number, number[]> | undefined {
  let consumers: Map<number, number[]> | undefined;
  tasks.forEach((task, j) => {
    const from = task.pipedFrom;
    if (from === undefined) return;
    consumers ??= new Map();
    const readers = consumers.get(from);
    if (readers) readers.push(j);
    else consumers.set(from, [j]);
  });
  return consumers;
}

/**
 * Starts task `i`, and with it the tasks its chunks stream into (ADR 022): each reads its own pipe, which
 * the producer feeds as it runs (a copy per reader, the slowest one setting the pace), or, when the
 * producer finished before a pause, its output as one chunk.
 */
function start(step: StepRun, i: number, source?: PipeSource): PromiseLike<void> | undefined {
  const { call, outputs, consumers } = step;
  const task = call.tasks[i] as Task;
  const readers = consumers?.get(i);
  if (call.known?.has(i)) {
    outputs[i] = call.known.get(i);
    const shown = call.showTask?.(i, outputs[i]);
    if (readers === undefined) return shown;
    const started = readers.map((reader) =>
      start(step, reader, { pipe: StreamPipe.of(call.run.control, outputs[i]), from: undefined }),
    );
    return all([shown, ...started]);
  }
  if (readers === undefined) return run(step, i, source, undefined);
  const pipes = readers.map(() => new StreamPipe(call.run.control));
  const own = run(step, i, source, writerOf(pipes));
  const started = readers.map((reader, r) =>
    start(step, reader, { pipe: pipes[r] as StreamPipe, from: task.id }),
  );
  return all([own, ...started]);
}

/** Waits for the promises among `started`; `undefined` when there is none. */
function all(started: ReadonlyArray<PromiseLike<void> | undefined>): PromiseLike<void> | undefined {
  const pending = started.filter((wait): wait is PromiseLike<void> => wait !== undefined);
  if (pending.length === 0) return undefined;
  return pending.length === 1 ? pending[0] : Promise.all(pending).then(ignore);
}

function run(
  step: StepRun,
  i: number,
  piped: PipeSource | undefined,
  pipe: PipeWriter | undefined,
): PromiseLike<void> | undefined {
  const { call, outputs } = step;
  const task = call.tasks[i] as Task;
  const node = call.topology.nodes[task.node] as CompiledNode;
  // The graph's own stream input flows into the nodes START feeds (ADR 022).
  const source =
    piped ??
    (call.topology.streamStart !== undefined && task.input instanceof StreamedInput
      ? { pipe: task.input.open(call.run.control), from: undefined }
      : undefined);
  let result: unknown;
  try {
    const taskCall: TaskCall =
      source === undefined && pipe === undefined && !node.streamBranches
        ? new PlainTaskCall(call, i, node, task.hasInput ? task.input : call.values)
        : streamingCall(call, { i, node, source, pipe });
    const cache = call.run.cache;
    result =
      cache && node.options.cachePolicy
        ? runCachedTask(taskCall, cache, call.topology.name)
        : executeTask(taskCall);
  } catch (error) {
    failed(call, i, error);
    throw error;
  }
  // The reader's task ended: its producer goes on alone (never blocked by what nobody reads).
  if (source) result = Promise.resolve(result).finally(() => source.pipe.detach());
  if (isPromiseLike(result)) {
    return result.then(
      (value) => {
        outputs[i] = value;
        return taskDone(call, i, value);
      },
      (error: unknown) => {
        failed(call, i, error);
        throw error;
      },
    );
  }
  outputs[i] = result;
  return taskDone(call, i, result);
}

/** A task finished: its write is shown to `updates` subscribers, then handed to `onTaskDone`. */
function taskDone(call: StepCall, i: number, output: unknown): Promise<void> | undefined {
  const shown = call.showTask?.(i, output);
  if (shown) return shown.then(() => call.onTaskDone?.(i, output));
  return call.onTaskDone?.(i, output);
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

async function runPooled(step: StepRun): Promise<unknown[]> {
  const { call, outputs, consumers } = step;
  checkConcurrency(call.run.concurrency);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < call.tasks.length) {
      if (call.run.control.aborted) throw call.run.control.reason;
      const i = next++;
      // A piped task runs with its producer, in the producer's slot.
      if (consumers && (call.tasks[i] as Task).pipedFrom !== undefined) continue;
      const result = start(step, i);
      if (result) await result;
    }
  };
  const workers: Array<Promise<void>> = [];
  for (let w = 0; w < call.run.concurrency; w++) workers.push(worker());
  await settle(workers, call);
  return outputs;
}

function ignore(): void {}
