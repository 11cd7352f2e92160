import type {
  Checkpointer,
  CompiledGraph,
  InferInput,
  InferOutput,
  RunOptions,
  RunResult,
} from '@weft/compose';

/**
 * What a worker needs of a graph: `run()` of a `CompiledGraph` compiled with the worker's checkpointer.
 *
 * @example
 * ```ts
 * const checkpointer = new MemoryCheckpointer();
 * const builder = new StateGraph(z.object({ count: z.number() })).addNode('add', (s) => ({ count: s.count + 1 })).addEdge(START, 'add').addEdge('add', END);
 * const graph: WorkerGraph = builder.compile({ checkpointer, name: 'counter' });
 * ```
 */
export interface WorkerGraph {
  run(input: unknown, options: RunOptions): Promise<RunResult<unknown>>;
}

/**
 * A graph a worker runs: compiled already (with the same checkpointer the worker is given), or a
 * function that compiles it with the worker's checkpointer — the safer form, since a graph without the
 * checkpointer could not be resumed by another worker.
 *
 * @example
 * ```ts
 * const builder = new StateGraph(z.object({ count: z.number() })).addNode('add', (s) => ({ count: s.count + 1 })).addEdge(START, 'add').addEdge('add', END);
 * const graphs = { counter: (checkpointer: Checkpointer) => builder.compile({ checkpointer }) };
 * ```
 */
export type GraphSource = WorkerGraph | ((checkpointer: Checkpointer) => WorkerGraph);

/**
 * Graph sources by the name jobs use.
 *
 * @example
 * ```ts
 * const counter = new StateGraph(z.object({ count: z.number() })).addNode('add', (s) => ({ count: s.count + 1 })).addEdge(START, 'add').addEdge('add', END);
 * export const graphs = { counter: (checkpointer: Checkpointer) => counter.compile({ checkpointer }) } satisfies GraphMap;
 * ```
 */
export type GraphMap = Readonly<Record<string, GraphSource>>;

/** The compiled graph a source stands for. */
type CompiledOf<TSource> = TSource extends (checkpointer: Checkpointer) => infer TGraph ? TGraph : TSource;

/**
 * The input type of a graph source (`unknown` when it is not a typed `CompiledGraph`).
 *
 * @example
 * ```ts
 * const counter = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END);
 * const graphs = { counter: (checkpointer: Checkpointer) => counter.compile({ checkpointer }) };
 * type CounterInput = InputOf<(typeof graphs)['counter']>;
 * ```
 */
export type InputOf<TSource> =
  CompiledOf<TSource> extends CompiledGraph<infer _I, infer _O, infer _N, infer _U>
    ? InferInput<CompiledOf<TSource>>
    : unknown;

/**
 * The output type of a graph source (`unknown` when it is not a typed `CompiledGraph`).
 *
 * @example
 * ```ts
 * const counter = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END);
 * const graphs = { counter: (checkpointer: Checkpointer) => counter.compile({ checkpointer }) };
 * type CounterState = OutputOf<(typeof graphs)['counter']>;
 * ```
 */
export type OutputOf<TSource> =
  CompiledOf<TSource> extends CompiledGraph<infer _I, infer _O, infer _N, infer _U>
    ? InferOutput<CompiledOf<TSource>>
    : unknown;

/** Compiles the sources that are functions. */
export function resolveGraphs(
  graphs: GraphMap,
  checkpointer: Checkpointer,
): ReadonlyMap<string, WorkerGraph> {
  const resolved = new Map<string, WorkerGraph>();
  for (const [name, source] of Object.entries(graphs)) {
    resolved.set(name, typeof source === 'function' ? source(checkpointer) : source);
  }
  return resolved;
}
