import { abortError } from '../errors/abort-error.js';
import { WeftError } from '../errors/weft-error.js';
import { callbacksToListener } from '../events/callbacks.js';
import type { RunEvent } from '../events/run-event.js';
import { runId as newRunId } from '../internal/ids.js';
import type { Store } from '../store/store.js';
import { drive } from './drive.js';
import type { LoopResult } from './loop.js';
import type { RunContext, RunObserver } from './run-context.js';
import { RunControl } from './run-control.js';
import type { RunOptions } from './run-options.js';
import type { Topology } from './topology.js';

/** Defaults a compiled graph passes to every run. */
export interface RunDefaults {
  readonly maxSteps: number;
  /** Tasks per step when the run options do not say (default: unlimited). */
  readonly concurrency?: number | undefined;
  /** The compile-time store (the run's `store` option wins). */
  readonly store?: Store | undefined;
}

/**
 * Runs a graph from the top: validates nothing (the caller did), links the caller's signal, builds the
 * observer from callbacks and stream listeners, and drives the loop. Rejects with an `ABORTED` error
 * when the caller cancelled, or with the failing node's error.
 */
export async function executeRun(
  topology: Topology,
  input: unknown,
  options: RunOptions,
  defaults: RunDefaults,
  listeners: RunObserver = {},
  body: (run: RunContext) => Promise<LoopResult> = (run) => drive(topology, run, input),
  control: RunControl = new RunControl(),
): Promise<LoopResult> {
  checkRunOptions(options);
  const userSignal = options.signal;
  if (userSignal?.aborted) throw abortError(userSignal.reason);
  const unfollow = control.follow(userSignal);
  const observer = withCallbacks(listeners, options);
  const run: RunContext = {
    runId: options.runId ?? newRunId(),
    path: [],
    control,
    config: options.config ?? {},
    store: options.store ?? defaults.store,
    threadId: options.threadId,
    observer,
    maxSteps: options.maxSteps ?? defaults.maxSteps,
    concurrency: options.concurrency ?? defaults.concurrency ?? Number.POSITIVE_INFINITY,
    abort: (reason) => control.abort(reason),
    kind: topology.kind,
  };
  const started = observer.event ? Date.now() : 0;
  observer.event?.({
    type: 'run-start',
    runId: run.runId,
    ts: started,
    path: [],
    graph: topology.name,
    input,
    ...threadOf(options),
  });
  try {
    const result = await body(run);
    if (observer.event) {
      const now = Date.now();
      observer.event({
        type: 'run-end',
        runId: run.runId,
        ts: now,
        path: [],
        graph: topology.name,
        output: result.output,
        steps: result.steps,
        durationMs: now - started,
        status: result.status === 'done' ? 'done' : 'interrupted',
      });
    }
    return result;
  } catch (thrown) {
    const error = userSignal?.aborted ? abortError(userSignal.reason) : asError(thrown);
    control.abort(error);
    if (observer.event) {
      const now = Date.now();
      observer.event({
        type: 'run-error',
        runId: run.runId,
        ts: now,
        path: [],
        graph: topology.name,
        error,
        durationMs: now - started,
      });
    }
    throw error;
  } finally {
    unfollow();
  }
}

function withCallbacks(listeners: RunObserver, options: RunOptions): RunObserver {
  const callback = options.callbacks && callbacksToListener(options.callbacks);
  if (!callback) return listeners;
  const existing = listeners.event;
  const event = existing
    ? (e: RunEvent) => {
        existing(e);
        callback(e);
      }
    : callback;
  return { ...listeners, event };
}

function threadOf(options: RunOptions): { threadId?: string } {
  return options.threadId === undefined ? {} : { threadId: options.threadId };
}

function asError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown;
  return new WeftError('NODE_FAILED', `a non-error was thrown: ${String(thrown)}`, { cause: thrown });
}

function checkRunOptions(options: RunOptions): void {
  const { maxSteps, concurrency } = options;
  if (maxSteps !== undefined && !(Number.isInteger(maxSteps) && maxSteps >= 1)) {
    throw new WeftError('INVALID_ARGUMENT', `maxSteps must be an integer of at least 1, got ${maxSteps}`);
  }
  if (concurrency !== undefined && !(concurrency >= 1)) {
    throw new WeftError('INVALID_ARGUMENT', `concurrency must be at least 1, got ${concurrency}`);
  }
}
