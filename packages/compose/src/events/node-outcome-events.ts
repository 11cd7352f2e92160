import type { NodeEndEvent, NodeErrorEvent } from './run-event.js';

/**
 * The clock read of the last `node-end` built in this process (see {@link lastNodeEndAt}), in a typed
 * array: a module variable holding a time would box each read in a new heap number, stored with a write
 * barrier, once per watched step.
 */
const lastEnd = new Float64Array(1);

/**
 * When the last `node-end` event built in this process was stamped. A step that ran without awaiting
 * anything since it started (`since`) ends at that time: only synchronous engine work lies between, and
 * no other run's code can have run in between, so that read is this step's last task's (or a task of a
 * graph nested in it). `Date.now()` costs ~50 ns on this VM, a tenth of a synchronous step's engine time.
 * A read from before `since` (a step whose tasks all had known outputs) is not used: the clock is read.
 *
 * @example
 * ```ts
 * const started = Date.now();
 * // … a synchronous step's tasks end, each stamped by nodeEndEvent …
 * const ended = lastNodeEndAt(started); // their last clock read, or a fresh one
 * ```
 */
export function lastNodeEndAt(since: number): number {
  const at = lastEnd[0] as number;
  return at >= since ? at : Date.now();
}

/**
 * Where a node's outcome happened: what a task's context (`TaskContext`) and a functional-API task call's
 * context (`CallContext`) both know, so each passes itself and nothing is built for it.
 */
export interface NodeEventSource {
  readonly runId: string;
  readonly path: readonly string[];
  readonly step: number;
  readonly node: string;
  readonly taskId: string;
  readonly attempt: number;
}

/**
 * The `node-end` event of a task that finished, timed from `started` (`Date.now()` when it started).
 *
 * @example
 * ```ts
 * const source: NodeEventSource = { runId: 'run-1', path: ['upper'], step: 0, node: 'upper', taskId: 't-1', attempt: 1 };
 * const started = Date.now();
 * nodeEndEvent(source, { text: 'HI' }, started); // { type: 'node-end', node: 'upper', output: { text: 'HI' }, durationMs: 0, … }
 * ```
 */
export function nodeEndEvent(source: NodeEventSource, output: unknown, started: number): NodeEndEvent {
  const now = Date.now();
  lastEnd[0] = now;
  return {
    type: 'node-end',
    runId: source.runId,
    ts: now,
    path: source.path,
    step: source.step,
    node: source.node,
    taskId: source.taskId,
    output,
    durationMs: now - started,
  };
}

/**
 * The `node-error` event of a task that failed for good (after its retries), timed from `started`.
 *
 * @example
 * ```ts
 * const source: NodeEventSource = { runId: 'run-1', path: ['upper'], step: 0, node: 'upper', taskId: 't-1', attempt: 1 };
 * const started = Date.now();
 * nodeErrorEvent(source, new Error('no way'), started); // { type: 'node-error', node: 'upper', error, attempt: 1, durationMs: 0, … }
 * ```
 */
export function nodeErrorEvent(source: NodeEventSource, error: Error, started: number): NodeErrorEvent {
  const now = Date.now();
  return {
    type: 'node-error',
    runId: source.runId,
    ts: now,
    path: source.path,
    step: source.step,
    node: source.node,
    taskId: source.taskId,
    error,
    attempt: source.attempt,
    durationMs: now - started,
  };
}
