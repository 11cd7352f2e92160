import type { ZodType } from 'zod';
import type { NodeContext } from '../pregel/node-context.js';
import type { Runnable } from '../runnable/runnable.js';
import type { Command } from '../vocabulary/command.js';
import type { End, Start } from '../vocabulary/constants.js';
import type { DataflowNodeOptions, StateHandlers } from '../vocabulary/node-options.js';
import type { BuilderError, NewNodeName, RouterResult } from './builder-types.js';
import { type CompileOptions, compileSpec } from './compile.js';
import type { CompiledGraph } from './compiled-graph.js';
import { passthrough } from './passthrough.js';
import { SpecBuilder } from './spec-builder.js';

/** The input and output types of one dataflow node. */
export interface NodeIO {
  /** What the node accepts (`unknown` when it declares a `merge`: the merge decides). */
  readonly input: unknown;
  /** What the node returns (what its routers see). */
  readonly output: unknown;
  /** What its successors receive: the output, or `{ [outputKey]: output }` with an `outputKey`. */
  readonly sent?: unknown;
}

/** A dataflow node's input type for edge checks: a node with a `merge` takes anything. */
type InputFor<TIn, TOptions> = TOptions extends { readonly merge: (...args: never) => unknown }
  ? unknown
  : TIn;
/** What a dataflow node's successors receive. */
type SentFor<TOut, TOptions> = TOptions extends { readonly outputKey: infer TKey extends string }
  ? string extends TKey
    ? Record<string, TOut>
    : { [K in TKey]: TOut }
  : TOut;

/** A dataflow node: a function of its input, a `Runnable`, or a compiled graph. */
export type DataflowNode<TIn, TOut> =
  | ((
      input: TIn,
      ctx: NodeContext,
    ) => TOut | Command<TOut> | Promise<TOut | Command<TOut>> | AsyncIterable<TOut>)
  | Runnable<TIn, TOut, unknown>
  | CompiledGraph<TIn, TOut, string, unknown>;

/** What node `TKey` (or START: the graph's input) hands to its successors, by the nodes' declared types. */
export type OutputOf<TNodes, TInput, TKey> = TKey extends Start
  ? TInput
  : TKey extends keyof TNodes
    ? TNodes[TKey] extends NodeIO
      ? TNodes[TKey]['output']
      : never
    : never;
type SentOf<TNodes, TInput, TKey> = TKey extends Start
  ? TInput
  : TKey extends keyof TNodes
    ? TNodes[TKey] extends { readonly sent: infer TSent }
      ? TSent
      : OutputOf<TNodes, TInput, TKey>
    : never;
/** What node `TKey` (or END: the graph's output) takes, by the nodes' declared types. */
export type InputOf<TNodes, TOutput, TKey> = TKey extends End
  ? TOutput
  : TKey extends keyof TNodes
    ? TNodes[TKey] extends NodeIO
      ? TNodes[TKey]['input']
      : never
    : never;

/** A passthrough node whose type no incoming edge has fixed yet: it fits anything, both ways. */
export interface PassthroughIO extends NodeIO {
  readonly input: unknown;
  readonly output: unknown;
  readonly passthrough: true;
}

/** True when `TKey` names a passthrough node of `TNodes` whose type is not fixed yet. */
type IsOpenPassthrough<TNodes, TKey> = TKey extends keyof TNodes
  ? TNodes[TKey] extends { readonly passthrough: true }
    ? true
    : false
  : false;

/** Empty when an edge's types fit; otherwise a one-element tuple whose label explains the mismatch. */
export type EdgeCheck<TNodes, TInput, TOutput, TFrom, TTo> =
  IsOpenPassthrough<TNodes, TFrom> extends true
    ? []
    : [SentOf<TNodes, TInput, TFrom>] extends [InputOf<TNodes, TOutput, TTo>]
      ? []
      : [BuilderError<`the output of "${TFrom & string}" does not fit the input of "${TTo & string}"`>];

/** The graph type after an edge: an edge into an open passthrough fixes its type to what it receives. */
type AfterEdge<TInput, TOutput, TNodes extends Record<string, NodeIO>, TFrom, TTo> = TFrom extends string
  ? IsOpenPassthrough<TNodes, TTo> extends true
    ? Graph<
        TInput,
        TOutput,
        Omit<TNodes, TTo & string> & {
          [K in TTo & string]: {
            input: SentOf<TNodes, TInput, TFrom>;
            output: SentOf<TNodes, TInput, TFrom>;
            sent: SentOf<TNodes, TInput, TFrom>;
          };
        }
      >
    : Graph<TInput, TOutput, TNodes>
  : Graph<TInput, TOutput, TNodes>;

/** Options of a dataflow {@link Graph}. */
export interface GraphOptions {
  /** Validates the run input. */
  readonly input?: ZodType;
  /**
   * Creates the graph's local state at the start of every run (Eino's `WithGenLocalState`): one mutable
   * object shared by the run's nodes (`ctx.localState`) and their `before`/`after` handlers. It lives
   * for one run and is not checkpointed (compiling with a checkpointer is an error); a subgraph has its
   * own.
   */
  readonly localState?: () => unknown;
}

/**
 * A dataflow graph (Eino style): a node's output is the input of its successors. Edge types are
 * checked by the compiler: connecting a node whose output does not fit the next node's input is an
 * error. Fan-in from several predecessors goes through the target's `merge` option or through
 * predecessors' `outputKey`s.
 *
 * @example
 * ```ts
 * const app = new Graph<string, number>()
 *   .addNode('length', (text: string) => text.length)
 *   .addNode('double', (n: number) => n * 2)
 *   .addEdge(START, 'length')
 *   .addEdge('length', 'double')
 *   .addEdge('double', END)
 *   .compile();
 * await app.invoke('abc'); // 6
 * ```
 */
export class Graph<TInput, TOutput, TNodes extends Record<string, NodeIO> = {}> {
  readonly #builder = new SpecBuilder('dataflow', undefined);

  constructor(options: GraphOptions = {}) {
    this.#builder.setSchemas(options.input, undefined);
    this.#builder.setLocalState(options.localState);
  }

  /** Adds a node; its input and output types join the graph's type for edge checks. */
  addNode<
    const TName extends string,
    TIn,
    TOut,
    // No default: a default would be fixed before `merge`'s parameters get their contextual types.
    const TOptions extends DataflowNodeOptions &
      StateHandlers<NoInfer<TIn>, NoInfer<TOut>> & {
        readonly goto?: readonly ((keyof TNodes & string) | NoInfer<TName> | End)[];
      },
  >(
    name: NewNodeName<TName, keyof TNodes & string>,
    node: DataflowNode<TIn, TOut>,
    options?: TOptions,
  ): Graph<
    TInput,
    TOutput,
    TNodes & { [K in TName]: { input: InputFor<TIn, TOptions>; output: TOut; sent: SentFor<TOut, TOptions> } }
  > {
    this.#builder.addNode(name, node, options);
    return this as unknown as Graph<
      TInput,
      TOutput,
      TNodes & {
        [K in TName]: { input: InputFor<TIn, TOptions>; output: TOut; sent: SentFor<TOut, TOptions> };
      }
    >;
  }

  /**
   * Adds a passthrough node: its output is its input (Eino's `AddPassthroughNode`), a point to join
   * several branches at or to branch from. Its type comes from its neighbours: the first edge into it
   * fixes it to what that edge carries; until then it fits any edge.
   *
   * @example
   * ```ts
   * const app = new Graph<string, string>()
   *   .addPassthrough('fork')
   *   .addNode('upper', (text: string) => text.toUpperCase())
   *   .addEdge(START, 'fork')
   *   .addConditionalEdges('fork', (text) => (text.length > 3 ? 'upper' : END), ['upper', END])
   *   .addEdge('upper', END)
   *   .compile();
   * await app.invoke('hello'); // 'HELLO'
   * ```
   */
  addPassthrough<const TName extends string>(
    name: NewNodeName<TName, keyof TNodes & string>,
    options?: Pick<DataflowNodeOptions, 'metadata' | 'merge' | 'outputKey' | 'defer'>,
  ): Graph<TInput, TOutput, TNodes & { [K in TName]: PassthroughIO }> {
    this.#builder.addNode(name, passthrough, { kind: 'passthrough', ...options });
    return this as unknown as Graph<TInput, TOutput, TNodes & { [K in TName]: PassthroughIO }>;
  }

  /**
   * Adds an edge carrying `from`'s output to `to`, type-checked. With a list of sources, `to` waits for
   * all of them (a join); their outputs are combined by `to`'s `merge` or their `outputKey`s, so a join
   * is not type-checked.
   */
  addEdge<
    const TFrom extends Start | (keyof TNodes & string) | readonly (keyof TNodes & string)[],
    const TTo extends (keyof TNodes & string) | End,
  >(
    from: TFrom,
    to: TTo,
    ..._check: TFrom extends string ? EdgeCheck<TNodes, TInput, TOutput, TFrom, TTo> : []
  ): AfterEdge<TInput, TOutput, TNodes, TFrom, TTo> {
    this.#builder.addEdge(from, to);
    return this as unknown as AfterEdge<TInput, TOutput, TNodes, TFrom, TTo>;
  }

  /** Adds a conditional edge: `router` reads `from`'s output and picks the next node(s), END, or Sends. */
  addConditionalEdges<
    const TFrom extends Start | (keyof TNodes & string),
    const TTarget extends (keyof TNodes & string) | End,
  >(
    from: TFrom,
    // NoInfer: the declared targets (or, without them, every node and END) decide what the router may return.
    router: (
      output: OutputOf<TNodes, TInput, TFrom>,
    ) => RouterResult<NoInfer<TTarget>, keyof TNodes & string>,
    targets?: readonly TTarget[],
  ): this {
    this.#builder.addBranch(from, router, targets);
    return this;
  }

  /**
   * Adds a stream branch (Eino's `NewStreamGraphBranch`): `condition` reads `from`'s output as a stream
   * and picks the next node(s), END, or Sends — typically from its first chunks (does the model's reply
   * start with a tool call?). It runs while `from` streams, on a copy of its chunks, so reading never
   * takes chunks from anyone else: the chosen nodes get `from`'s whole output. A node that returns a
   * plain value (or was restored from a checkpoint) gives the condition that value as one chunk. Pregel
   * mode only (`compile()` reports one in DAG mode).
   *
   * @example
   * ```ts
   * const app = new Graph<string, string>()
   *   .addNode('model', async function* (prompt: string) {
   *     yield 'CALL ';
   *     yield prompt;
   *   })
   *   .addNode('tools', (text: string) => `ran ${text}`)
   *   .addNode('answer', (text: string) => text)
   *   .addEdge(START, 'model')
   *   .addStreamBranch(
   *     'model',
   *     async (chunks) => {
   *       for await (const chunk of chunks) return chunk.startsWith('CALL') ? 'tools' : 'answer';
   *       return 'answer';
   *     },
   *     ['tools', 'answer'],
   *   )
   *   .addEdge('tools', END)
   *   .addEdge('answer', END)
   *   .compile();
   * await app.invoke('search'); // 'ran CALL search'
   * ```
   */
  addStreamBranch<
    const TFrom extends Start | (keyof TNodes & string),
    const TTarget extends (keyof TNodes & string) | End,
  >(
    from: TFrom,
    condition: (
      chunks: AsyncIterable<OutputOf<TNodes, TInput, TFrom>>,
    ) => RouterResult<NoInfer<TTarget>, keyof TNodes & string>,
    targets?: readonly TTarget[],
  ): this {
    this.#builder.addStreamBranch(from, condition, targets);
    return this;
  }

  /**
   * Validates the graph and returns its runtime.
   *
   * @throws GraphValidationError with every problem at once.
   */
  compile(
    options?: CompileOptions<keyof TNodes & string>,
  ): CompiledGraph<TInput, TOutput, keyof TNodes & string, unknown> {
    return compileSpec(this.#builder.spec(), options);
  }
}
