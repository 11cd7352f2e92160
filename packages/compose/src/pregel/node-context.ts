import type { Draft } from 'immer';
import type { EffectInfo, EffectOptions } from '../effects/effect-types.js';
import type { NodeEventInit } from '../events/node-events.js';
import type { Store } from '../store/store.js';

/**
 * A compiled graph as {@link NodeContext.runSubgraph} takes it (every `CompiledGraph` is one). The parent
 * a nested run gets is erased here so that this module stays below the graph builders.
 *
 * @example
 * ```ts
 * const inner = new StateGraph(z.object({ n: z.number() }))
 *   .addNode('double', (s) => ({ n: s.n * 2 }))
 *   .addEdge(START, 'double')
 .addEdge('double', END)
 *   .addEdge('double', END)
 *   .compile();
 * const asNode: NestableGraph<{ n: number }> = inner;
 * ```
 */
export interface NestableGraph<TOutput> {
  readonly name: string;
  invoke(input: never): Promise<TOutput>;
  runNested(input: unknown, parent: never): Promise<unknown>;
}

/**
 * What a node receives besides its input.
 *
 * @example
 * ```ts
 * const graph = new StateGraph(z.object({ url: z.string(), body: z.string().optional() }));
 * graph.addNode('fetch', async (state, ctx) => {
 *   const response = await fetch(state.url, { signal: ctx.signal });
 *   ctx.emit({ status: response.status });
 *   return { body: await response.text() };
 * });
 * ```
 */
export interface NodeContext {
  /** Fires when the run is cancelled or this attempt times out; pass it to anything cancellable. */
  readonly signal: AbortSignal;
  /** The superstep this task runs in. */
  readonly step: number;
  /** This node's name. */
  readonly node: string;
  /** Node names from the outermost graph to this node (subgraphs nest). */
  readonly path: readonly string[];
  /** The task's id, unique within its thread and namespace. */
  readonly taskId: string;
  /** The attempt number (1-based; greater than 1 on retries). */
  readonly attempt: number;
  /** The run's id. */
  readonly runId: string;
  /** The thread, when the run has one. */
  readonly threadId: string | undefined;
  /** User values passed as `config` to `invoke`/`stream`. */
  readonly config: Readonly<Record<string, unknown>>;
  /**
   * The long-term {@link Store} passed to `compile({ store })` or the run's `{ store }` (the run's wins);
   * nested subgraphs share it. `undefined` when neither gave one.
   */
  readonly store: Store | undefined;
  /**
   * The call options the run routed to this node (`nodeOptions` by name or path, `kindOptions` by the
   * node's `kind`; see `RunOptions`), or `undefined` when none did.
   *
   * @example
   * ```ts
   * const app = new StateGraph(z.object({ prompt: z.string(), temperature: z.number().optional() }))
   *   .addNode('model', (state, ctx) => ({ temperature: Number(ctx.options?.temperature ?? 0.7) }))
   *   .addEdge(START, 'model')
   *   .addEdge('model', END)
   *   .compile();
   * await app.invoke({ prompt: 'hi' }, { nodeOptions: { model: { temperature: 0 } } }); // { prompt: 'hi', temperature: 0 }
   * await app.invoke({ prompt: 'hi' }); // { prompt: 'hi', temperature: 0.7 }: ctx.options is undefined
   * ```
   */
  readonly options: Readonly<Record<string, unknown>> | undefined;
  /**
   * The local state of a dataflow graph (`new Graph({ localState })`): one object per run, shared by the
   * graph's nodes and their `before`/`after` handlers; `undefined` when the graph declares none.
   */
  readonly localState: unknown;
  /** Sends a value to `custom` stream subscribers (a no-op when nobody listens). */
  emit(data: unknown): void;
  /**
   * True when someone reads this run's chunks (`messages` or `events` mode, callbacks): a node that can
   * stream (a model call) should then stream and send each chunk with {@link NodeContext.chunk}.
   */
  readonly streaming: boolean;
  /**
   * Sends a chunk (a model token, for one) to `messages` subscribers and as a `chunk` event, tagged with
   * the agent it belongs to (and that agent's `branch` among nested agents, on the event). Returns a
   * promise when the consumer is behind or an `observe` subscriber is busy: await it (backpressure). A
   * no-op when nobody listens.
   */
  chunk(
    chunk: unknown,
    options?: { readonly agent?: string; readonly branch?: string },
  ): Promise<void> | undefined;
  /**
   * Reports a node event (`model-call`, `tool-start`, `tool-end`, `agent`) on the run's event stream; the
   * run id, time, path, step, node and task are filled in. Returns a promise when the event consumer is
   * behind or the run's `observe` subscriber has not settled this event yet: await it, and the node goes
   * on once the subscriber caught up (it rejects when that subscriber failed on it — the agent Runner's
   * commit, for one). A no-op when nobody listens.
   */
  report(event: NodeEventInit): Promise<void> | undefined;
  /**
   * Pauses the run and asks for a value: the run returns with this interrupt pending; resuming with
   * `Command({ resume })` re-runs the node and this call then returns the resume value. Several calls
   * in one node are matched in order. Requires a checkpointer and a `threadId`.
   */
  interrupt<TResume = unknown>(value: unknown): TResume;
  /**
   * Draft-style updates: runs `recipe` on an immer draft of `state` (the state this node received, or
   * any part of it shaped like the state) and returns the update that makes the same change through the
   * reducers — new values for plain keys, the pushed items for an `appendReducer` key, the difference for
   * `sumReducer`, the changed fields for `mergeReducer`. `state` itself never changes. Return the result
   * (or merge it into your return value). Throws a `WeftError` `INVALID_UPDATE` naming the key for a
   * change no update can say (items removed from an append key, a key with a custom reducer changed).
   *
   * @example
   * ```ts
   * const graph = new StateGraph(z.object({ items: z.array(z.number()), count: z.number() }), { reducers: { items: appendReducer } });
   * graph.addNode('add', (state, ctx) =>
   *   ctx.produce(state, (draft) => {
   *     draft.items.push(2); // { items: [2] } through appendReducer
   *     draft.count += 1; // { count: state.count + 1 }
   *   }),
   * );
   * ```
   */
  produce<TState extends object>(state: TState, recipe: (draft: Draft<TState>) => void): Partial<TState>;
  /**
   * Runs a compiled graph nested under this task (an agent used as a tool, a graph picked at run time):
   * the run's events, config and checkpoints, a path one node deeper, and its own checkpoint namespace
   * named by `key` (unique within the task, e.g. a tool call id). Resolves with the graph's output (its
   * final state, for state graphs). If it pauses, the promise rejects with a pause signal that carries
   * every nested pause of this task so far: let it (or the last one, when several nested runs went in
   * parallel) propagate out of the node and the task pauses; resuming re-runs the node, and the same
   * `runSubgraph` call continues inside the nested graph — a finished one returns its output without
   * running again. If a node of the nested graph returns `Command({ graph: Command.PARENT })`, the promise
   * rejects with a signal that ends this task with that command (its update and goto). Rethrow what
   * {@link isGraphPause} recognises when catching errors around it.
   */
  runSubgraph<TOutput>(
    graph: NestableGraph<TOutput>,
    input: unknown,
    options: RunSubgraphOptions,
  ): Promise<TOutput>;
  /**
   * Runs `fn` once for this task, across its pauses: a node that pauses (an `interrupt()`, a paused
   * `runSubgraph`) runs again from the top when resumed, and `once` then resolves with what `fn` produced
   * before the pause instead of calling it again. Use it for side effects next to something that may
   * pause (a tool call beside an agent used as a tool, an email sent before asking for approval). `key`
   * names the call within the task; concurrent calls with one key share one call of `fn`. The result is
   * stored with the pause, so it must be serializable. Not remembered: a rejection, and a call still
   * running when the node pauses (await your `once` calls before letting a pause out). Retries of a
   * failed attempt start afresh, like the node itself.
   */
  once<T>(key: string, fn: () => T | Promise<T>): Promise<T>;
  /**
   * Runs a side effect (a payment, an email, a ticket) once for this task, across crashes, retries,
   * lost leases, resumes and replays: its result is recorded durably the moment `fn` returns (awaited
   * before `effect` resolves, whatever the run's durability), keyed by the thread, the checkpoint the
   * step started from, the task and the effect's name and position (or `options.key`), and any re-run
   * of the task gets the recorded result instead of calling `fn` again. `fn` receives a stable
   * `idempotencyKey` to hand to APIs that take one, which closes the window between the external call
   * and its record. The result must be serializable. See the docs' "Guarantees".
   *
   * @throws WeftError `EFFECT_FENCED` (as a rejection) when the run lost its thread before the result
   *   was recorded; `INVALID_ARGUMENT` for an empty name or key.
   */
  effect<T>(
    name: string,
    fn: (effect: EffectInfo) => T | Promise<T>,
    options?: EffectOptions,
  ): Promise<Awaited<T>>;
}

/**
 * Options of `ctx.runSubgraph`.
 *
 * @example
 * ```ts
 * const child = new StateGraph(z.object({ text: z.string() }))
 *   .addNode('upper', (s) => ({ text: s.text.toUpperCase() }))
 *   .addEdge(START, 'upper')
 *   .addEdge('upper', END)
 *   .compile();
 * const app = new StateGraph(z.object({ items: z.array(z.string()) }))
 *   .addNode('each', async (state, ctx) => {
 *     const items: string[] = [];
 *     for (const [i, text] of state.items.entries()) {
 *       const options: RunSubgraphOptions = { key: `item-${i}`, config: { tenant: 'acme' } }; // one namespace per item
 *       items.push((await ctx.runSubgraph(child, { text }, options)).text);
 *     }
 *     return { items };
 *   })
 *   .addEdge(START, 'each')
 *   .addEdge('each', END)
 *   .compile();
 * await app.invoke({ items: ['a', 'b'] }); // { items: ['A', 'B'] }
 * ```
 */
export interface RunSubgraphOptions {
  /** Names the nested run within the task (its checkpoint namespace); unique per task. */
  readonly key: string;
  /** Values merged over the run's `config` for the nested run. */
  readonly config?: Readonly<Record<string, unknown>>;
  /** Aborts the nested run (in addition to the task's own signal). */
  readonly signal?: AbortSignal;
}
