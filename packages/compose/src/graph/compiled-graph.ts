// The compiled graph's public methods (run, stream, batch, state, drawing), each delegating to one module
// (run-graph, graph-stream, thread-state, topology-json); its options types live in compiled-graph-options.ts.
// Over 500 lines because it is the public class: most of its length is the TSDoc and overloads of each method,
// while each body is a call into the module that does the work.

import { type BulkSuperstep, bulkWriteState } from '../checkpoint/bulk-update.js';
import type { JsonValue } from '../checkpoint/checkpointer.js';
import { isContinuation } from '../checkpoint/durable-run.js';
import { topologyAt, withSubgraphStates } from '../checkpoint/subgraph-state.js';
import { readHistory, readState, type StateSnapshot } from '../checkpoint/thread-state.js';
import { type UpdateStateOptions, writeState } from '../checkpoint/thread-write.js';
import { WeftError } from '../errors/weft-error.js';
import { cacheNamespace } from '../pregel/cached-task.js';
import { checkInput } from '../pregel/input-check.js';
import { type RunContext, runContext, UNWATCHED } from '../pregel/run-context.js';
import { RunControl } from '../pregel/run-control.js';
import type { RunOptions } from '../pregel/run-options.js';
import type { GraphSpec, NestedRunParent, NestedStateView, SubgraphHandle } from '../pregel/topology.js';
import { concatChunks } from '../runnable/concat.js';
import type { Runnable } from '../runnable/runnable.js';
import { createGraphStream } from '../stream/graph-stream.js';
import type { InferStreamPart, StreamMode, StreamParts } from '../stream/stream-modes.js';
import { StreamedInput } from '../stream/streamed-input.js';
import type { Command } from '../vocabulary/command.js';
import type { End, Start } from '../vocabulary/constants.js';
import type { BatchOptions, Continue, GraphRuntimeOptions, StreamOptions } from './compiled-graph-options.js';
import { type GraphNode, graphNodes } from './graph-nodes.js';
import { mapInOrder } from './map-in-order.js';
import { runNested } from './nested-run.js';
import { type GraphRuntime, presentOutput, type RunResult, runGraph, runResult } from './run-graph.js';
import { pickOutput } from './state-io.js';
import { type GraphJSON, jsonToMermaid, specToJSON } from './topology-json.js';

export type {
  BatchOptions,
  Continue,
  GraphRuntimeOptions,
  StreamOptions,
} from './compiled-graph-options.js';

let readRuntime: (graph: CompiledGraph<never, unknown>) => GraphRuntime;

/**
 * The compiled graph's store and topology, for the package's own tools (`compactThread`). Internal:
 * not exported from any entry.
 */
export function graphRuntime(
  graph: CompiledGraph<never, unknown>,
): Pick<GraphRuntime, 'checkpointer' | 'topology'> {
  return readRuntime(graph);
}

/**
 * A compiled, immutable graph: run it in four paradigms, nest it as a node of another graph, draw it,
 * and (with a checkpointer) pause, resume, inspect and fork its threads. Made by `compile()`.
 *
 * @example
 * ```ts
 * const graph = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add').addEdge('add', END);
 * const app = graph.compile();
 * const state = await app.invoke({ count: 0 }); // { count: 1 }
 * for await (const update of app.stream({ count: 0 }, { mode: 'updates' })) console.log(update.node);
 * ```
 */
export class CompiledGraph<TInput, TOutput, TNodes extends string = string, TUpdate = unknown>
  implements Runnable<TInput, TOutput, TOutput>, SubgraphHandle
{
  /** The graph's name (used in events, errors and drawings). */
  readonly name: string;
  /** The builder-independent description this graph was compiled from. */
  readonly spec: GraphSpec;
  readonly #runtime: GraphRuntime;

  static {
    readRuntime = (graph) => graph.#runtime;
  }
  #nodes: Readonly<Record<string, GraphNode>> | undefined;

  /** @internal Use `compile()` on a builder. */
  constructor(runtime: GraphRuntime) {
    this.#runtime = runtime;
    this.name = runtime.topology.name;
    this.spec = runtime.topology.spec;
    Object.freeze(this);
  }

  /** `pregel` (supersteps, loops allowed) or `dag` (run when all predecessors are done). */
  get mode(): 'pregel' | 'dag' {
    return this.#runtime.topology.mode;
  }

  /** The nodes by name, each runnable on its own to test it in isolation (see {@link GraphNode}). */
  get nodes(): Readonly<Record<TNodes, GraphNode<TNodes>>> {
    this.#nodes ??= graphNodes(this.#runtime);
    return this.#nodes as Readonly<Record<TNodes, GraphNode<TNodes>>>;
  }

  /**
   * Runs the graph and resolves with its output (the final state of a state graph). If the run paused,
   * the output carries `__interrupt__` with the pending interrupts. `null` or a `Command({ resume })`
   * continues a checkpointed thread.
   *
   * @throws InputValidationError when the input fails the graph's input schema (nothing runs).
   * @throws NodeError when a node fails after its retries; StepLimitError on runaway loops;
   *   WeftError `ABORTED` when `signal` fires.
   */
  async invoke(input: TInput | Continue, options: RunOptions<TNodes> = {}): Promise<TOutput> {
    return pickOutput(this.spec, presentOutput(await this.#runRaw(input, options))) as TOutput;
  }

  /** Runs the graph like `invoke` and reports how it ended: status, output, interrupts, checkpoint. */
  async run(input: TInput | Continue, options: RunOptions<TNodes> = {}): Promise<RunResult<TOutput>> {
    const result = await this.#runRaw(input, options);
    return runResult(result, result.checkpointId, pickOutput(this.spec, result.output)) as RunResult<TOutput>;
  }

  async #runRaw(input: TInput | Continue, options: RunOptions): Promise<RunResult<unknown>> {
    return runGraph(this.#runtime, { input: await this.#parse(input), options });
  }

  /**
   * Runs the graph and yields what `mode` asks for, with backpressure. Breaking out of the loop aborts
   * the run and waits for it to end (so the thread is free for the next run when the loop exits). A pause ends the stream with an `__interrupt__` part (values: the state with
   * `__interrupt__`; updates: node `__interrupt__`). With `batched: true` it yields arrays of the parts
   * ready at each turn instead (the same parts in the same order, fewer turns).
   */
  stream<
    const TMode extends StreamMode | readonly StreamMode[] = 'values',
    const TBatched extends boolean = false,
  >(
    input: TInput | Continue,
    options: StreamOptions<TMode, TNodes, TBatched> = {},
  ): AsyncIterableIterator<
    TBatched extends true
      ? InferStreamPart<StreamParts<TOutput, TNodes, TUpdate>, TMode>[]
      : InferStreamPart<StreamParts<TOutput, TNodes, TUpdate>, TMode>
  > {
    const mode = options.mode ?? 'values';
    const modes = (Array.isArray(mode) ? mode : [mode]) as readonly StreamMode[];
    // The run's own control (no AbortController unless a node asks for a signal, see ADR 003): the
    // consumer stopping early aborts it; the caller's signal is followed by the run as usual.
    const control = new RunControl();
    let ended: Promise<void> = Promise.resolve();
    // Breaking out of the loop waits for the aborted run to end, so its thread is free (and its last
    // checkpoint stored) when the loop exits.
    const stream = createGraphStream(
      {
        modes,
        tagged: Array.isArray(mode),
        subgraphs: options.subgraphs ?? false,
        present: (values) => pickOutput(this.spec, values),
        ...(this.spec.io ? { io: this.spec.io } : {}),
      },
      () => {
        control.abort(new WeftError('ABORTED', 'the stream consumer stopped reading'));
        return ended;
      },
    );
    const dataflow = this.#runtime.topology.kind === 'dataflow';
    const start = async () => {
      const parsed = await this.#parse(input);
      const result = await runGraph(this.#runtime, {
        input: parsed,
        options,
        listeners: stream.observer,
        control,
      });
      if (result.status === 'interrupted') {
        if (modes.includes('values'))
          await stream.put('values', pickOutput(this.spec, presentOutput(result)));
        if (modes.includes('updates'))
          await stream.put('updates', { node: '__interrupt__', update: result.interrupts, path: [] });
      } else if (modes.includes('values') && dataflow) {
        // Dataflow graphs have no per-step state (a state graph's continuation starts with its state).
        await stream.put('values', result.output);
      }
      stream.queue.close();
    };
    ended = start().catch((error: unknown) => stream.queue.fail(error));
    return (options.batched ? stream.queue.batches() : stream.queue) as AsyncIterableIterator<never>;
  }

  /**
   * Runs like `invoke` on a stream of input chunks. When every node START feeds reads a stream as it
   * comes (a `transform` runnable that gets nothing else), the chunks flow into those nodes as they
   * arrive, with backpressure (ADR 022); otherwise (and with a checkpointer, an input schema or a
   * concurrency limit below the number of such nodes) they are concatenated first.
   */
  async collect(input: AsyncIterable<TInput>, options: RunOptions<TNodes> = {}): Promise<TOutput> {
    return this.invoke((this.#streamed(input, options) ?? (await gather(input))) as TInput, options);
  }

  /**
   * Yields the `values` stream of a run on a stream of input chunks, which flow into the first nodes as
   * they arrive when those read streams (see `collect`), else are concatenated first.
   */
  async *transform(input: AsyncIterable<TInput>, options: RunOptions<TNodes> = {}): AsyncIterable<TOutput> {
    yield* this.stream((this.#streamed(input, options) ?? (await gather(input))) as TInput, {
      ...options,
      mode: 'values',
    }) as AsyncIterable<TOutput>;
  }

  /** The graph's stream input as its first nodes read it, or `undefined` when it must be joined first. */
  #streamed(input: AsyncIterable<unknown>, options: RunOptions): StreamedInput | undefined {
    const { topology, checkpointer, concurrency } = this.#runtime;
    const readers = topology.streamStart;
    if (readers === undefined || checkpointer || this.spec.io || this.spec.inputSchema) return undefined;
    if (readers > (options.concurrency ?? concurrency ?? Number.POSITIVE_INFINITY)) return undefined;
    return new StreamedInput(input, readers);
  }

  /** Runs several inputs (up to `batchConcurrency` at once, default 8); outputs in input order. */
  async batch(inputs: readonly TInput[], options: BatchOptions<TNodes> = {}): Promise<TOutput[]> {
    const { batchConcurrency = 8, ...runOptions } = options;
    if (!(Number.isInteger(batchConcurrency) && batchConcurrency >= 1)) {
      throw new WeftError(
        'INVALID_ARGUMENT',
        `batch: batchConcurrency must be an integer of at least 1, got ${batchConcurrency}`,
      );
    }
    return mapInOrder(inputs, batchConcurrency, (input) => this.invoke(input, runOptions));
  }

  /**
   * The thread's state at its latest (or a given) checkpoint: values, next nodes, pending interrupts.
   * With `subgraphs: true`, each task that runs a subgraph carries its namespace (`ns`) and, when the
   * subgraph has checkpoints there (it is paused or running), its own state (`state`), recursively.
   *
   * @throws WeftError `INVALID_ARGUMENT` without a checkpointer; `NOT_FOUND` for an unknown checkpoint id.
   *
   * @example
   * ```ts
   * const State = z.object({ topic: z.string(), draft: z.string().optional() });
   * const drafter = new StateGraph(State)
   *   .addNode('write', (s, ctx) => ({ draft: ctx.interrupt<string>(`draft on ${s.topic}`) }))
   *   .addEdge(START, 'write').addEdge('write', END)
   *   .compile({ name: 'agent' });
   * const graph = new StateGraph(State)
   *   .addNode('plan', (s) => ({ topic: s.topic.trim() }))
   *   .addNode('agent', drafter)
   *   .addEdge(START, 'plan').addEdge('plan', 'agent').addEdge('agent', END)
   *   .compile({ checkpointer: new MemoryCheckpointer() });
   * await graph.run({ topic: 'cats' }, { threadId: 'thread-1' }); // pauses inside `agent`
   * const state = await graph.getState('thread-1', { subgraphs: true });
   * const agent = state?.tasks.find((task) => task.node === 'agent');
   * agent?.state?.values; // the paused subgraph's values; agent?.ns addresses it in updateState
   * ```
   */
  async getState(
    threadId: string,
    options: { readonly checkpointId?: string; readonly subgraphs?: boolean } = {},
  ): Promise<StateSnapshot<TOutput> | undefined> {
    const checkpointer = this.#checkpointer('getState');
    const { topology } = this.#runtime;
    const state = await readState({ checkpointer, topology, threadId }, options.checkpointId);
    if (!state || !options.subgraphs) return this.#present(state) as StateSnapshot<TOutput> | undefined;
    return this.#present(
      await withSubgraphStates({ checkpointer, topology, threadId }, state),
    ) as StateSnapshot<TOutput>;
  }

  /**
   * The thread's states, newest first, across every fork; with `ns`, the states of the subgraph whose
   * checkpoints live in that namespace (see `getState(thread, { subgraphs: true })`).
   *
   * @throws WeftError `INVALID_ARGUMENT` for an `ns` whose parts do not name subgraph nodes.
   *
   * @example
   * ```ts
   * declare const graph: CompiledGraph<{ topic: string }, { topic: string }, 'plan' | 'agent'>; // paused in `agent`
   * const all = await graph.getStateHistory('thread-1'); // newest first, every branch
   * const state = await graph.getState('thread-1', { subgraphs: true });
   * const ns = state?.tasks.find((task) => task.node === 'agent')?.ns;
   * const inner = ns ? await graph.getStateHistory('thread-1', { ns }) : []; // the subgraph's checkpoints, newest first
   * ```
   */
  async getStateHistory(
    threadId: string,
    options: {
      readonly limit?: number;
      readonly before?: string;
      readonly filter?: Readonly<Record<string, JsonValue>>;
      /** A subgraph's checkpoint namespace; the graph's own history when not given. */
      readonly ns?: string;
    } = {},
  ): Promise<Array<StateSnapshot<TOutput>>> {
    const checkpointer = this.#checkpointer('getStateHistory');
    const { ns = '', ...list } = options;
    const topology = topologyAt(this.#runtime.topology, ns);
    const history = await readHistory({ checkpointer, topology, threadId, ns }, list);
    return (ns === '' ? history.map((state) => this.#present(state)) : history) as Array<
      StateSnapshot<TOutput>
    >;
  }

  /** A snapshot as this graph shows it: an entrypoint's values are its return value. */
  #present<TState extends StateSnapshot | undefined>(state: TState): TState {
    const { io } = this.spec;
    if (!io || !state) return state;
    return { ...state, values: io.fromState(state.values as Record<string, unknown>) };
  }

  /**
   * Writes a checkpoint with `values` applied (through the reducers) on top of the latest or a given
   * checkpoint, as if `asNode` had written them, and returns its id. Keys not given keep their values.
   * `asNode: END` finishes the thread (nothing runs next, pending interrupts are dropped); `asNode: START`
   * writes the values as a new turn's input (an `input` checkpoint, the nodes START leads to next); `null`
   * values write nothing; a `Command` as values (written as a node) routes its `goto`s and `Send`s. A
   * thread with no checkpoint starts from the empty state (values without `asNode` are then written as
   * START's). Continuing from an older checkpoint forks the thread; the original history stays.
   *
   * With `ns` (a subgraph's checkpoint namespace, as `getState(thread, { subgraphs: true })` shows on
   * its task), the subgraph's state is updated instead: `values` and `asNode` are the subgraph's, and the
   * parent's resumed run continues the subgraph from the new checkpoint.
   *
   * @throws WeftError `INVALID_ARGUMENT` for an unknown `asNode`, or an `ns` whose parts do not name
   *   subgraph nodes; `NOT_FOUND` for a subgraph namespace without checkpoints or an unknown checkpoint id.
   * @throws InputValidationError when `values` fail the state's update schema.
   *
   * @example
   * ```ts
   * const State = z.object({ topic: z.string(), draft: z.string().optional() });
   * const drafter = new StateGraph(State)
   *   .addNode('write', (s, ctx) => ({ draft: ctx.interrupt<string>(`draft on ${s.topic}`) }))
   *   .addEdge(START, 'write').addEdge('write', END)
   *   .compile({ name: 'agent' });
   * const graph = new StateGraph(State)
   *   .addNode('plan', (s) => ({ topic: s.topic.trim() }))
   *   .addNode('agent', drafter)
   *   .addEdge(START, 'plan').addEdge('plan', 'agent').addEdge('agent', END)
   *   .compile({ checkpointer: new MemoryCheckpointer() });
   * await graph.run({ topic: 'cats' }, { threadId: 'thread-1' }); // pauses inside `agent`
   * await graph.updateState('thread-1', { topic: 'cats' }, { asNode: 'plan' });
   * const state = await graph.getState('thread-1', { subgraphs: true });
   * const agent = state?.tasks.find((task) => task.node === 'agent');
   * if (agent?.ns) await graph.updateState('thread-1', { draft: 'edited' }, { ns: agent.ns });
   * ```
   */
  updateState(
    threadId: string,
    values: TUpdate | Command<TUpdate, TNodes> | null,
    options?: UpdateStateOptions & { readonly asNode?: TNodes | Start | End; readonly ns?: undefined },
  ): Promise<string>;
  updateState(
    threadId: string,
    values: Readonly<Record<string, unknown>> | null,
    options: UpdateStateOptions & { readonly asNode?: string; readonly ns: string },
  ): Promise<string>;
  async updateState(
    threadId: string,
    values: unknown,
    options: UpdateStateOptions & { readonly asNode?: string } = {},
  ): Promise<string> {
    const topology = topologyAt(this.#runtime.topology, options.ns ?? '');
    const checkpointer = this.#checkpointer('updateState');
    const run = this.#updateRun(threadId, topology);
    return writeState({ checkpointer, topology, run, threadId }, values, options);
  }

  /**
   * Applies several supersteps of updates in one call, as the reference engine's `bulkUpdateState`:
   * each superstep becomes one checkpoint (as if its updates' nodes had run in that step), on top of the
   * previous one, and the thread then continues from the last. Every update is checked before anything
   * is written; the thread is claimed once for the whole call. Returns the last checkpoint id.
   *
   * @throws WeftError `INVALID_ARGUMENT` for no supersteps, an empty one, a superstep of several updates
   *   where one lacks `asNode` (or is `START` or `END`), or an unknown `asNode`. A thread without
   *   checkpoints starts from the empty state (seed or clone one: `asNode: START` writes a turn's input).
   * @throws InputValidationError when values fail the state's update schema.
   *
   * @example
   * ```ts
   * const app = new StateGraph(z.object({ topic: z.string(), notes: z.array(z.string()) }), { reducers: { notes: appendReducer } })
   *   .addNode('plan', (s) => ({ topic: s.topic }))
   *   .addNode('research', () => ({ notes: 'r' }))
   *   .addNode('review', () => ({ notes: 'v' }))
   *   .addEdge(START, 'plan').addEdge('plan', 'research').addEdge('plan', 'review')
   *   .addEdge('research', END).addEdge('review', END)
   *   .compile({ checkpointer: new MemoryCheckpointer() });
   * await app.bulkUpdateState('thread-1', [
   *   { updates: [{ values: { topic: 'cats' }, asNode: 'plan' }] },
   *   { updates: [{ values: { notes: 'a' }, asNode: 'research' }, { values: { notes: 'b' }, asNode: 'review' }] },
   * ]);
   * ```
   */
  async bulkUpdateState(
    threadId: string,
    supersteps: ReadonlyArray<BulkSuperstep<TUpdate, TNodes | Start | End>>,
    options: { readonly checkpointId?: string } = {},
  ): Promise<string> {
    return bulkWriteState({
      checkpointer: this.#checkpointer('bulkUpdateState'),
      topology: this.#runtime.topology,
      run: this.#updateRun(threadId),
      threadId,
      supersteps,
      checkpointId: options.checkpointId,
    });
  }

  /**
   * A copy of this graph with other runtime options — a checkpointer, step limit, durability or static
   * breakpoints — sharing the compiled topology (nothing is recompiled).
   *
   * @throws WeftError `INVALID_ARGUMENT` for a bad `maxSteps` or a breakpoint on an unknown node.
   */
  withOptions(options: GraphRuntimeOptions<TNodes>): CompiledGraph<TInput, TOutput, TNodes, TUpdate> {
    const { maxSteps, interruptBefore, interruptAfter } = options;
    if (maxSteps !== undefined && !(Number.isInteger(maxSteps) && maxSteps >= 1)) {
      throw new WeftError(
        'INVALID_ARGUMENT',
        `withOptions: maxSteps must be an integer of at least 1, got ${maxSteps}`,
      );
    }
    for (const node of [...(interruptBefore ?? []), ...(interruptAfter ?? [])]) {
      if (!this.#runtime.topology.byName.has(node))
        throw new WeftError('INVALID_ARGUMENT', `withOptions: breakpoint on "${node}", which is not a node`);
    }
    return new CompiledGraph({
      ...this.#runtime,
      ...('checkpointer' in options ? { checkpointer: options.checkpointer } : {}),
      ...('store' in options ? { store: options.store } : {}),
      ...(maxSteps === undefined ? {} : { maxSteps }),
      ...(options.durability === undefined ? {} : { durability: options.durability }),
      ...(interruptBefore === undefined ? {} : { interruptBefore }),
      ...(interruptAfter === undefined ? {} : { interruptAfter }),
    });
  }

  /** The topology as JSON: nodes, edges (static, conditional, join, goto), nested subgraphs. */
  toJSON(): GraphJSON {
    return specToJSON(this.spec, this.name, this.#runtime.topology.mode);
  }

  /** The topology as a Mermaid flowchart. */
  toMermaid(): string {
    return jsonToMermaid(this.toJSON());
  }

  /**
   * Drops the node cache's entries of these nodes (default: every node of this graph).
   *
   * @throws WeftError `INVALID_ARGUMENT` without a cache.
   *
   * @example
   * ```ts
   * const app = new StateGraph(z.object({ url: z.string(), page: z.string().optional() }))
   *   .addNode('fetch', async (s) => ({ page: await (await fetch(s.url)).text() }), { cachePolicy: { key: (s: { url: string }) => s.url } })
   *   .addEdge(START, 'fetch').addEdge('fetch', END)
   *   .compile({ cache: new MemoryCache() });
   * await app.clearCache(['fetch']);
   * ```
   */
  async clearCache(nodes?: readonly TNodes[]): Promise<void> {
    const { cache, topology } = this.#runtime;
    if (!cache)
      throw new WeftError(
        'INVALID_ARGUMENT',
        `clearCache needs a cache; compile graph "${this.name}" with { cache }`,
      );
    const names = nodes ?? topology.nodes.map((node) => node.name);
    await cache.clear(names.map((node) => cacheNamespace(this.name, node)));
  }

  /** @internal What reading this graph's checkpoints through a parent needs. */
  nestedState(): NestedStateView {
    return { topology: this.#runtime.topology, keepsState: this.#runtime.keepsState === true };
  }

  /** @internal Runs this graph as a node of a parent run. */
  runNested(input: unknown, parent: NestedRunParent): Promise<unknown> {
    return runNested(this.#runtime, (value) => this.#parse(value as TInput), input, parent);
  }

  /** The run context of a write from outside a run (`updateState`, `bulkUpdateState`). */
  #updateRun(threadId: string, topology = this.#runtime.topology): RunContext {
    return runContext({
      runId: 'update',
      path: [],
      control: new RunControl(),
      config: {},
      threadId,
      observer: UNWATCHED,
      maxSteps: 1,
      concurrency: 1,
      abort: () => undefined,
      kind: topology.kind,
      state: topology.state,
    });
  }

  #checkpointer(method: string) {
    const checkpointer = this.#runtime.checkpointer;
    if (!checkpointer)
      throw new WeftError(
        'INVALID_ARGUMENT',
        `${method} needs a checkpointer; compile graph "${this.name}" with { checkpointer }`,
      );
    return checkpointer;
  }

  /** The checked input: synchronous, or a promise on a state graph's first check (zod loads then). */
  #parse(input: TInput | Continue): unknown {
    if (isContinuation(input) || input instanceof StreamedInput) return input;
    if (this.spec.io) return this.spec.io.toState(input);
    return checkInput(this.spec, `the input of graph "${this.name}"`, input);
  }
}

async function gather<T>(source: AsyncIterable<T>): Promise<unknown> {
  const chunks: T[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return concatChunks(chunks);
}
