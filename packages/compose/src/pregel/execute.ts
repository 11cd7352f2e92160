import type { NodeCache } from '../cache/node-cache.js';
import { abortError } from '../errors/abort-error.js';
import { WeftError } from '../errors/weft-error.js';
import { callbacksToListener } from '../events/callbacks.js';
import type { RunEvent } from '../events/run-event.js';
import { SerialSubscriber } from '../events/run-subscriber.js';
import { UsageTally } from '../events/usage-tally.js';
import type { UsageTotals } from '../events/usage-totals.js';
import { runId as newRunId } from '../internal/ids.js';
import type { Store } from '../store/store.js';
import { callOptionsOf } from './call-options.js';
import { drive } from './drive.js';
import type { LoopResult } from './loop-hooks.js';
import { type RunContext, type RunObserver, runContext, runObserver, UNWATCHED } from './run-context.js';
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
  /** Deep-freeze the state handed to nodes (state graphs; the `freezeState` compile option). */
  readonly freezeState?: boolean | undefined;
  /** The node cache (`compile({ cache })`). */
  readonly cache?: NodeCache | undefined;
}

/** One run of a graph from the top, as {@link executeRun} takes it. */
export interface ExecuteRun {
  readonly topology: Topology;
  readonly input: unknown;
  /** The caller's run options. */
  readonly options: RunOptions;
  /** What the compiled graph gives every run. */
  readonly defaults: RunDefaults;
  /** A stream's listeners (none for `invoke`). */
  readonly listeners?: RunObserver | undefined;
  /** What runs the loop (a durable run reads and writes checkpoints); default: the plain loop. */
  readonly body?: ((run: RunContext) => Promise<LoopResult>) | undefined;
  /** The run's cancellation, when the caller made it (a stream cancels through it). */
  readonly control?: RunControl | undefined;
}

/**
 * Runs a graph from the top: validates nothing (the caller did), links the caller's signal, builds the
 * observer from callbacks and stream listeners, and drives the loop. Rejects with an `ABORTED` error
 * when the caller cancelled, or with the failing node's error.
 */
export async function executeRun(call: ExecuteRun): Promise<LoopResult> {
  const { topology, input, options, defaults, listeners = UNWATCHED } = call;
  const body = call.body ?? ((run: RunContext) => drive(topology, run, input));
  const control = call.control ?? new RunControl();
  checkRunOptions(options);
  const userSignal = options.signal;
  if (userSignal?.aborted) throw abortError(userSignal.reason);
  const unfollow = control.follow(userSignal);
  const subscribed = withSubscribers(listeners, options);
  const { observer } = subscribed;
  const tally = observer.event ? new UsageTally() : undefined;
  const { settled } = subscribed;
  const run = runContext({
    runId: options.runId ?? newRunId(),
    usage: tally,
    path: [],
    control,
    config: options.config ?? {},
    store: options.store ?? defaults.store,
    cache: defaults.cache,
    threadId: options.threadId,
    observer,
    maxSteps: options.maxSteps ?? defaults.maxSteps,
    concurrency: options.concurrency ?? defaults.concurrency ?? Number.POSITIVE_INFINITY,
    abort: (reason) => control.abort(reason),
    kind: topology.kind,
    nodes: topology.byName,
    state: topology.state,
    freezeState: defaults.freezeState,
    callOptions: callOptionsOf(topology, options),
    localState: topology.localState?.(),
    fence: options.fence,
  });
  const started = observer.event ? Date.now() : 0;
  observer.event?.({
    type: 'run-start',
    runId: run.runId,
    ts: started,
    path: [],
    graph: topology.name,
    input,
    ...threadOf(options),
    ...(topology.agent ? { agent: topology.agent } : {}),
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
        ...usageOf(tally),
      });
    }
    await settled();
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
        ...usageOf(tally),
      });
    }
    await settled()?.catch(() => undefined);
    throw error;
  } finally {
    unfollow();
  }
}

/**
 * The run's observer: the stream's listeners, the callbacks, and the `observe` subscriber, which the
 * node reporting an event, each step and the end of the run wait for. Without callbacks and `observe`,
 * the stream's listeners as they are (nothing added to a run nobody watches).
 */
function withSubscribers(
  listeners: RunObserver,
  options: RunOptions,
): { observer: RunObserver; settled: () => Promise<void> | undefined } {
  const callback = options.callbacks && callbacksToListener(options.callbacks);
  const existing = listeners.event;
  const merged = callback && existing ? fanOut(existing, callback) : (callback ?? existing);
  const withEvents: RunObserver =
    merged && merged !== existing ? runObserver({ ...listeners, event: merged }) : listeners;
  if (!options.observe) return { observer: withEvents, settled: () => undefined };
  const serial = new SerialSubscriber(options.observe);
  const { values, updates, chunk, pace } = listeners;
  const observer = runObserver({
    custom: withEvents.custom,
    event: merged ? fanOut(merged, serial.deliver) : serial.deliver,
    pace: () => both(pace?.(), serial.pending()),
    values: values && ((v, path) => both(values(v, path), serial.pending())),
    updates: updates && ((n, u, path) => both(updates(n, u, path), serial.pending())),
    chunk: chunk && ((n, c, path, agent) => both(chunk(n, c, path, agent), serial.pending())),
  });
  return { observer, settled: serial.pending };
}

function fanOut(first: (e: RunEvent) => void, second: (e: RunEvent) => void): (e: RunEvent) => void {
  return (e) => {
    first(e);
    second(e);
  };
}

function both(a: Promise<void> | undefined, b: Promise<void> | undefined): Promise<void> | undefined {
  if (!a) return b;
  if (!b) return a;
  return Promise.all([a, b]).then(() => undefined);
}

function usageOf(tally: UsageTally | undefined): { usageTotals?: UsageTotals } {
  const usageTotals = tally?.totals();
  return usageTotals ? { usageTotals } : {};
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
