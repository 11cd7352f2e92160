import type { ZodType } from 'zod';
import { InputValidationError } from '../errors/input-validation-error.js';
import { WeftError } from '../errors/weft-error.js';
import { executeRun, type RunDefaults } from '../pregel/execute.js';
import { PregelLoop } from '../pregel/loop.js';
import type { RunContext } from '../pregel/run-context.js';
import type { RunOptions } from '../pregel/run-options.js';
import { SubgraphPaused } from '../pregel/subgraph-paused.js';
import { SubgraphWrites } from '../pregel/subgraph-writes.js';
import type { Topology } from '../pregel/topology.js';
import { concatChunks } from '../runnable/concat.js';
import type { Runnable } from '../runnable/runnable.js';
import { createGraphStream } from '../stream/graph-stream.js';
import type { InferStreamPart, StreamMode, StreamParts } from '../stream/stream-modes.js';
import type { GraphSpec, NestedRunParent, SubgraphHandle } from './graph-spec.js';
import { type GraphJSON, jsonToMermaid, specToJSON } from './topology-json.js';

/** Options of `stream()`. */
export interface StreamOptions<
  TMode extends StreamMode | readonly StreamMode[] = StreamMode | readonly StreamMode[],
> extends RunOptions {
  /** What to yield (default `values`); several modes yield `[mode, payload]` tuples. */
  readonly mode?: TMode;
  /** Also yield values/updates/messages/custom of nested subgraphs (events always include them). */
  readonly subgraphs?: boolean;
}

/** Options of `batch()`. */
export interface BatchOptions extends RunOptions {
  /** Runs at once (default 8). */
  readonly batchConcurrency?: number;
}

/**
 * A compiled, immutable graph: run it in four paradigms, nest it as a node of another graph, draw it.
 * Made by `compile()` of `StateGraph`, `Graph` or `Chain`.
 *
 * @example
 * ```ts
 * const app = graph.compile();
 * const state = await app.invoke({ count: 0 });
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
  readonly #topology: Topology;
  readonly #defaults: RunDefaults;
  readonly #inputSchema: ZodType | undefined;

  /** @internal Use `compile()` on a builder. */
  constructor(topology: Topology, defaults: RunDefaults) {
    this.#topology = topology;
    this.#defaults = defaults;
    this.name = topology.name;
    this.spec = topology.spec;
    this.#inputSchema = topology.spec.inputSchema ?? topology.spec.state?.schema.partial().strict();
    Object.freeze(this);
  }

  /** `pregel` (supersteps, loops allowed) or `dag` (run when all predecessors are done). */
  get mode(): 'pregel' | 'dag' {
    return this.#topology.mode;
  }

  /**
   * Runs the graph to the end and resolves with its output (the final state of a state graph).
   *
   * @throws InputValidationError when the input fails the graph's input schema (nothing runs).
   * @throws NodeError when a node fails after its retries; StepLimitError on runaway loops;
   *   WeftError `ABORTED` when `signal` fires.
   */
  async invoke(input: TInput, options: RunOptions = {}): Promise<TOutput> {
    const result = await executeRun(this.#topology, this.#parse(input), options, this.#defaults);
    return result.output as TOutput;
  }

  /**
   * Runs the graph and yields what `mode` asks for, with backpressure. Breaking out of the loop
   * aborts the run.
   */
  stream<const TMode extends StreamMode | readonly StreamMode[] = 'values'>(
    input: TInput,
    options: StreamOptions<TMode> = {},
  ): AsyncIterableIterator<InferStreamPart<StreamParts<TOutput, TNodes, TUpdate>, TMode>> {
    const mode = options.mode ?? 'values';
    const modes = (Array.isArray(mode) ? mode : [mode]) as readonly StreamMode[];
    const controller = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
    const stream = createGraphStream(
      { modes, tagged: Array.isArray(mode), subgraphs: options.subgraphs ?? false },
      () => controller.abort(new WeftError('ABORTED', 'the stream consumer stopped reading')),
    );
    const { queue } = stream;
    const finalValues = modes.includes('values') && this.#topology.kind === 'dataflow';
    try {
      const parsed = this.#parse(input);
      executeRun(this.#topology, parsed, { ...options, signal }, this.#defaults, stream.observer).then(
        async (result) => {
          if (finalValues) await stream.put('values', result.output);
          queue.close();
        },
        (error: unknown) => queue.fail(error),
      );
    } catch (error) {
      queue.fail(error);
    }
    return queue as AsyncIterableIterator<InferStreamPart<StreamParts<TOutput, TNodes, TUpdate>, TMode>>;
  }

  /** Concatenates a stream of input chunks, then runs like `invoke`. */
  async collect(input: AsyncIterable<TInput>, options: RunOptions = {}): Promise<TOutput> {
    return this.invoke((await gather(input)) as TInput, options);
  }

  /** Concatenates a stream of input chunks, then yields the `values` stream. */
  async *transform(input: AsyncIterable<TInput>, options: RunOptions = {}): AsyncIterable<TOutput> {
    yield* this.stream((await gather(input)) as TInput, {
      ...options,
      mode: 'values',
    }) as AsyncIterable<TOutput>;
  }

  /** Runs several inputs (up to `batchConcurrency` at once, default 8); outputs in input order. */
  async batch(inputs: readonly TInput[], options: BatchOptions = {}): Promise<TOutput[]> {
    const { batchConcurrency = 8, ...runOptions } = options;
    const outputs: TOutput[] = new Array(inputs.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < inputs.length) {
        const i = next++;
        outputs[i] = await this.invoke(inputs[i] as TInput, runOptions);
      }
    };
    await Promise.all(Array.from({ length: Math.min(batchConcurrency, inputs.length) }, worker));
    return outputs;
  }

  /** The topology as JSON: nodes, edges (static, conditional, join, goto), nested subgraphs. */
  toJSON(): GraphJSON {
    return specToJSON(this.spec, this.name, this.#topology.mode);
  }

  /** The topology as a Mermaid flowchart. */
  toMermaid(): string {
    return jsonToMermaid(this.toJSON());
  }

  /** @internal Runs this graph as a node of a parent run. */
  async runNested(input: unknown, parent: NestedRunParent): Promise<unknown> {
    const topology = this.#topology;
    const run: RunContext = {
      ...parent.run,
      path: [...parent.run.path, parent.ctx.node],
      signal: parent.signal,
      maxSteps: this.#defaults.maxSteps,
      kind: topology.kind,
    };
    const state = topology.state;
    const childInput = state ? this.#parse(pickKeys(input, state.keys) as TInput) : input;
    const loop = new PregelLoop(topology, run, {}, state !== undefined && parent.run.kind === 'state');
    await loop.begin(childInput);
    const result = await loop.loop();
    if (result.status === 'interrupted') throw new SubgraphPaused(result.interrupts);
    if (loop.writes) return new SubgraphWrites(loop.writes);
    return result.output;
  }

  #parse(input: TInput): unknown {
    if (!this.#inputSchema) return input;
    const result = this.#inputSchema.safeParse(input);
    if (!result.success) throw new InputValidationError(`the input of graph "${this.name}"`, result.error);
    return result.data;
  }
}

async function gather<T>(source: AsyncIterable<T>): Promise<unknown> {
  const chunks: T[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return concatChunks(chunks);
}

function pickKeys(input: unknown, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof input !== 'object' || input === null) return out;
  for (const key of keys) {
    const value = (input as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
