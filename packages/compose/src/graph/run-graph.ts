import type { NodeCache } from '../cache/node-cache.js';
import type { Durability } from '../checkpoint/checkpoint-session.js';
import type { Checkpointer } from '../checkpoint/checkpointer.js';
import { isContinuation, runDurable } from '../checkpoint/durable-run.js';
import type { DurableTarget } from '../checkpoint/durable-target.js';
import { WeftError } from '../errors/weft-error.js';
import type { Breakpoints } from '../pregel/breakpoints.js';
import { executeRun } from '../pregel/execute.js';
import type { LoopResult } from '../pregel/loop-hooks.js';
import type { RunObserver } from '../pregel/run-context.js';
import type { RunControl } from '../pregel/run-control.js';
import type { RunOptions } from '../pregel/run-options.js';
import type { PendingInterrupt } from '../pregel/task.js';
import type { Topology } from '../pregel/topology.js';
import type { Store } from '../store/store.js';

/** What a compiled graph passes to every run of it. */
export interface GraphRuntime {
  readonly topology: Topology;
  readonly maxSteps: number;
  /** Tasks per step of this graph (compile option); `undefined` leaves it to the run. */
  readonly concurrency?: number | undefined;
  /** The store nodes see as `ctx.store` unless the run passes its own. */
  readonly store?: Store | undefined;
  /** Where nodes with a `cachePolicy` keep their results. */
  readonly cache?: NodeCache | undefined;
  readonly checkpointer: Checkpointer | undefined;
  /** Compiled with `checkpointer: true`: as a subgraph, keeps its state across the parent's turns. */
  readonly keepsState?: boolean;
  readonly durability: Durability;
  readonly interruptBefore: readonly string[];
  readonly interruptAfter: readonly string[];
  /** Deep-freeze the state handed to nodes (the `freezeState` compile option; state graphs only). */
  readonly freezeState?: boolean | undefined;
}

/** How a run ended, as `run()` reports it. */
export interface RunResult<TOutput> {
  /** `interrupted` when the run paused for input (see `interrupts`); resume with `Command({ resume })`. */
  readonly status: 'done' | 'interrupted';
  /** The output (the state, for state graphs) at the end or at the pause. */
  readonly output: TOutput;
  readonly interrupts: readonly PendingInterrupt[];
  /** Supersteps run by this call. */
  readonly steps: number;
  /** The thread's latest checkpoint after this run (with a checkpointer). */
  readonly checkpointId: string | undefined;
}

/** One call of {@link runGraph}: its input, the run's options, and who watches or stops it. */
export interface GraphCall {
  readonly input: unknown;
  readonly options: RunOptions;
  /** Receives the run's events, values and chunks (a stream's observer); none when not given. */
  readonly listeners?: RunObserver | undefined;
  /** Stops the run from outside (a stream's consumer); the run makes its own when not given. */
  readonly control?: RunControl | undefined;
}

/**
 * Runs a compiled graph once: plain runs go straight to the loop; with a checkpointer the run reads
 * and writes the thread's checkpoints, and `null`/`Command` inputs continue the thread.
 */
export async function runGraph(runtime: GraphRuntime, call: GraphCall): Promise<RunResult<unknown>> {
  const { input, options, listeners, control } = call;
  const { topology, checkpointer } = runtime;
  const defaults = {
    maxSteps: runtime.maxSteps,
    concurrency: runtime.concurrency,
    store: runtime.store,
    freezeState: runtime.freezeState,
    cache: runtime.cache,
  };
  if (!checkpointer) {
    if (isContinuation(input)) {
      throw new WeftError(
        'INVALID_ARGUMENT',
        `graph "${topology.name}" has no checkpointer, so there is nothing to resume; compile it with { checkpointer }`,
      );
    }
    const result: LoopResult = await executeRun({ topology, input, options, defaults, listeners, control });
    return runResult(result, undefined);
  }
  const threadId = options.threadId;
  if (threadId === undefined || threadId === '') {
    throw new WeftError(
      'INVALID_ARGUMENT',
      `graph "${topology.name}" has a checkpointer: pass { threadId } to invoke/stream`,
    );
  }
  const target: DurableTarget = {
    checkpointer,
    threadId,
    ns: '',
    durability: options.durability ?? runtime.durability,
    parents: {},
    checkpointId: options.checkpointId,
    breakpoints: breakpointsOf(runtime, options),
    taskWrites: options.taskWrites,
  };
  let checkpointId: string | undefined;
  const result = await executeRun({
    topology,
    input,
    options,
    defaults,
    listeners,
    body: async (run) => {
      const durable = await runDurable({ topology, run, input, target });
      checkpointId = durable.checkpointId;
      return durable;
    },
    control,
  });
  return runResult(result, checkpointId);
}

/**
 * The public result, field by field (`output` in place of the loop's when given): the loop's result
 * carries internal fields (the writes a nested run hands its parent), and a spread of it plus a field
 * would make a new hidden class for every run.
 */
export function runResult(
  result: LoopResult,
  checkpointId: string | undefined,
  output = result.output,
): RunResult<unknown> {
  const { status, interrupts, steps } = result;
  return { status, output, interrupts, steps, checkpointId };
}

/** The static breakpoints of a run: the run's own lists, else the graph's compile options. */
export function breakpointsOf(runtime: GraphRuntime, options: RunOptions): Breakpoints | undefined {
  const before = options.interruptBefore ?? runtime.interruptBefore;
  const after = options.interruptAfter ?? runtime.interruptAfter;
  if (before.length === 0 && after.length === 0) return undefined;
  const index = (name: string): number => {
    const node = runtime.topology.byName.get(name);
    if (!node) throw new WeftError('INVALID_ARGUMENT', `breakpoint on "${name}", which is not a node`);
    return node.index;
  };
  return { before: new Set(before.map(index)), after: new Set(after.map(index)) };
}

/** The value `invoke` resolves with: the output, plus `__interrupt__` when the run paused. */
export function presentOutput(result: RunResult<unknown>): unknown {
  if (result.status === 'done') return result.output;
  const base =
    typeof result.output === 'object' && result.output !== null && !Array.isArray(result.output)
      ? result.output
      : {};
  return { ...base, __interrupt__: result.interrupts };
}
