import { END, START } from '../vocabulary/constants.js';
import type { NodeOptions } from '../vocabulary/node-options.js';
import { type CompileOptions, compileSpec } from './compile.js';
import type { CompiledGraph } from './compiled-graph.js';
import type { DataflowNode } from './graph.js';
import { SpecBuilder } from './spec-builder.js';

/**
 * Linear sugar over a dataflow graph: each step's output is the next step's input.
 *
 * @example
 * ```ts
 * const app = new Chain<string>()
 *   .pipe((text) => text.trim())
 *   .pipe((text) => text.split(' ').length, { name: 'count' })
 *   .compile();
 * await app.invoke(' a b '); // 2
 * ```
 */
export class Chain<TInput, TOutput = TInput> {
  readonly #builder: SpecBuilder;
  readonly #last: string;
  readonly #count: number;

  constructor(builder?: SpecBuilder, last: string = START, count = 0) {
    this.#builder = builder ?? new SpecBuilder('dataflow', undefined);
    this.#last = last;
    this.#count = count;
  }

  /** Appends a step (named `step-N` unless `options.name` is given). */
  pipe<TNext>(
    node: DataflowNode<TOutput, TNext>,
    options: NodeOptions & { readonly name?: string } = {},
  ): Chain<TInput, TNext> {
    const { name = `step-${this.#count + 1}`, ...nodeOptions } = options;
    // Each chain owns its builder: extending one chain twice must give two independent chains.
    const builder = this.#builder.clone();
    builder.addNode(name, node, nodeOptions);
    builder.addEdge(this.#last, name);
    return new Chain<TInput, TNext>(builder, name, this.#count + 1);
  }

  /**
   * Validates the chain and returns its runtime.
   *
   * @throws GraphValidationError with every problem at once (for example an empty chain).
   */
  compile(options?: CompileOptions): CompiledGraph<TInput, TOutput, string, unknown> {
    const spec = this.#builder.spec();
    const withEnd = { ...spec, edges: [...spec.edges, { from: this.#last, to: END }] };
    return compileSpec(this.#last === START ? spec : withEnd, options);
  }
}
