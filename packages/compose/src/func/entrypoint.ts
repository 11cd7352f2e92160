import type { NodeCache } from '../cache/node-cache.js';
import type { Checkpointer } from '../checkpoint/checkpointer.js';
import { WeftError } from '../errors/weft-error.js';
import { type CompileOptions, compileSpec } from '../graph/compile.js';
import type { CompiledGraph } from '../graph/compiled-graph.js';
import type { NodeContext } from '../pregel/node-context.js';
import type { IndexedGraphSpec } from '../pregel/spec-index.js';
import { isGraphPause, TaskContext } from '../pregel/task-context.js';
import type { GraphIO } from '../pregel/topology.js';
import type { Store } from '../store/store.js';
import { END, START } from '../vocabulary/constants.js';
import type { RetryPolicy } from '../vocabulary/node-options.js';
import { type EntryRun, inScope, resultsOf } from './call-scope.js';
import { EntrypointFinal, type EntrypointSave, type EntrypointValue } from './entrypoint-final.js';
import { entrypointState } from './entrypoint-state.js';
import { pauseAfterCalls } from './settle-calls.js';
import { type AnyTaskFunction, isGenerator } from './task.js';

/** Options of {@link entrypoint}. */
export interface EntrypointOptions {
  /** The entrypoint's name: its node's name in events, checkpoints and drawings. */
  readonly name: string;
  /** Where its runs checkpoint (tasks' results, pauses, what it saves for the next turn). */
  readonly checkpointer?: Checkpointer;
  /** The store its body and tasks reach as `ctx.store`. */
  readonly store?: Store;
  /** The node cache (for graphs it runs with `ctx.runSubgraph` that use one). */
  readonly cache?: NodeCache;
  /** Tries the body again when it fails (calls that finished are not made again). */
  readonly retry?: RetryPolicy;
  /** Fails an attempt of the body that takes longer (its `ctx.signal` fires). */
  readonly timeoutMs?: number;
  /** When checkpoints and task results reach the store (default `sync`: before the call returns). */
  readonly durability?: 'sync' | 'async' | 'exit';
  /**
   * The tasks the body calls, for drawings (the playground shows them inside the entrypoint's node).
   * Optional: they run the same without being listed; a task not listed is drawn once it ran.
   */
  readonly tasks?: readonly AnyTaskFunction[];
  /** Deep-freeze the input and `ctx.previous` handed to the body (default as for graphs). */
  readonly freezeState?: boolean;
}

/** What an entrypoint's body receives besides its input: a node's context and the thread's last save. */
export interface EntrypointContext<TPrevious = unknown> extends NodeContext {
  /**
   * What the last finished turn on this thread saved: its return value, or the `save` of its
   * `entrypoint.final`; `undefined` on a thread's first turn (and without a checkpointer).
   */
  readonly previous: TPrevious | undefined;
}

/** The function an entrypoint runs. */
export type EntrypointFunction<TInput, TReturn> = (
  input: TInput,
  ctx: EntrypointContext<EntrypointSave<Awaited<TReturn>>>,
) => TReturn;

/** The compiled graph an entrypoint is: one node, its input and its return value. */
export type Entrypoint<TInput, TOutput> = CompiledGraph<TInput, TOutput, string, never>;

/**
 * The functional API's workflow: plain async code, compiled to a one-node graph on the same Pregel
 * runtime as any graph, so it checkpoints, pauses with `interrupt()`, resumes, streams and nests like
 * one. Tasks it calls ({@link task}) have their results checkpointed as they finish: a run resumed after
 * a pause or a crash skips the calls that finished. With a checkpointer, each turn on a thread sees what
 * the last one saved as `ctx.previous` (its return value, or `entrypoint.final`'s `save`). The result is
 * a `CompiledGraph`: `invoke`/`stream`/`getState`/`getStateHistory`, usable as a node of another graph.
 *
 * @throws WeftError `INVALID_ARGUMENT` for a missing name or a generator function.
 *
 * @example
 * ```ts
 * const checkpointer = new MemoryCheckpointer();
 * const draft = task('draft', async (topic: string) => `An essay about ${topic}`);
 *
 * const review = entrypoint({ name: 'review', checkpointer, tasks: [draft] }, async (topic: string, ctx) => {
 *   const essay = await draft(topic);
 *   const verdict = ctx.interrupt<string>({ question: 'Approve?', essay });
 *   return { essay, verdict };
 * });
 *
 * await review.invoke('cats', { threadId: 't1' }); // { __interrupt__: [...] }
 * await review.invoke(new Command({ resume: 'approved' }), { threadId: 't1' }); // draft is not called again
 * ```
 */
export function entrypoint<TInput, TReturn>(
  options: EntrypointOptions,
  fn: EntrypointFunction<TInput, TReturn>,
): Entrypoint<TInput, EntrypointValue<Awaited<TReturn>>> {
  const { name } = options;
  if (typeof name !== 'string' || name.trim() === '')
    throw new WeftError('INVALID_ARGUMENT', 'entrypoint: options.name must be a non-empty string');
  if (typeof fn !== 'function' || isGenerator(fn)) {
    throw new WeftError(
      'INVALID_ARGUMENT',
      `entrypoint "${name}": the body must be a (non-generator) function; send progress with ctx.emit(...)`,
    );
  }
  const body = (state: Record<string, unknown>, ctx: NodeContext) =>
    runBody(name, fn as EntrypointFunction<unknown, unknown>, state, ctx);
  const spec: IndexedGraphSpec = {
    kind: 'state',
    nodes: new Map([
      [
        name,
        {
          name,
          index: 0,
          impl: { kind: 'function', fn: body as (input: never, ctx: never) => unknown },
          options: {
            ...(options.retry ? { retry: options.retry } : {}),
            ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
          },
        },
      ],
    ]),
    edges: [
      { from: START, to: name },
      { from: name, to: END },
    ],
    joins: [],
    branches: [],
    state: { schema: entrypointState(), reducers: {} },
    inputSchema: undefined,
    outputSchema: undefined,
    issues: [],
    io: entrypointIO(name, options.tasks ?? []),
  };
  const compile: CompileOptions = {
    name,
    maxSteps: 1,
    ...(options.checkpointer ? { checkpointer: options.checkpointer } : {}),
    ...(options.store ? { store: options.store } : {}),
    ...(options.cache ? { cache: options.cache } : {}),
    ...(options.durability ? { durability: options.durability } : {}),
    ...(options.freezeState === undefined ? {} : { freezeState: options.freezeState }),
  };
  return compileSpec(spec, compile);
}

/**
 * `entrypoint.final({ value, save })`: return `value` to the caller and save `save` for the thread's
 * next turn (`ctx.previous`), as the reference engine's `entrypoint.final`.
 *
 * @example
 * ```ts
 * const checkpointer = new MemoryCheckpointer();
 * const counter = entrypoint({ name: 'counter', checkpointer }, async (n: number, ctx: EntrypointContext<number>) => {
 *   const total = (ctx.previous ?? 0) + n;
 *   return entrypoint.final({ value: `total ${total}`, save: total });
 * });
 * ```
 */
entrypoint.final = function final<TValue, TSave>(result: {
  readonly value: TValue;
  readonly save: TSave;
}): EntrypointFinal<TValue, TSave> {
  return new EntrypointFinal(result.value, result.save);
};

/** Runs the body with its call scope; its write is the return value and what the next turn reads. */
async function runBody(
  name: string,
  fn: EntrypointFunction<unknown, unknown>,
  state: Record<string, unknown>,
  ctx: NodeContext,
): Promise<Record<string, unknown>> {
  if (!(ctx instanceof TaskContext))
    throw new WeftError('INVALID_ARGUMENT', `entrypoint "${name}" runs only as a node of its own graph`);
  const run = ctx.runContext;
  const entry: EntryRun = {
    ctx,
    run,
    name,
    previous: state.previous,
    results: resultsOf(run, ctx.taskId),
    running: new Set(),
    pauses: [],
  };
  // The body's context is the node's own, with the thread's last save on it.
  const context = Object.defineProperty(ctx, 'previous', { value: state.previous, enumerable: true });
  const scope = { entry, key: undefined, context, calls: 0, interrupts: 0 };
  let returned: unknown;
  try {
    returned = await inScope(scope, () => fn(state.input, context as unknown as EntrypointContext<never>));
  } catch (thrown) {
    throw isGraphPause(thrown) ? await pauseAfterCalls(entry, thrown) : thrown;
  }
  return returned instanceof EntrypointFinal
    ? { output: returned.value, previous: returned.save, returned: true }
    : { output: returned, previous: returned, returned: true };
}

/** How an entrypoint's runs map their one value to its state and back. */
function entrypointIO(name: string, tasks: readonly AnyTaskFunction[]): GraphIO {
  return {
    toState: (input) => ({ input, returned: false }),
    fromState: (values) => values.output,
    shows: (values) => values.returned === true,
    fromUpdate: (node, update) =>
      node === name && typeof update === 'object' && update !== null
        ? (update as Record<string, unknown>).output
        : update,
    tasks: tasks.map((task) => task.taskName),
  };
}
