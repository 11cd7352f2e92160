import type { ZodObject, ZodType, z } from 'zod';
import type { NodeContext } from '../pregel/node-context.js';
import type { Runnable } from '../runnable/runnable.js';
import type { AnyReducer, InferReducerUpdate } from '../state/reducers.js';
import type { Command, ParentBoundCommand } from '../vocabulary/command.js';
import type { End, Start } from '../vocabulary/constants.js';
import type { NodeOptions } from '../vocabulary/node-options.js';
import type { NewNodeName, RouterResult } from './builder-types.js';
import { type CompileOptions, compileSpec } from './compile.js';
import type { CompiledGraph } from './compiled-graph.js';
import { statePassthrough } from './passthrough.js';
import { SpecBuilder } from './spec-builder.js';
import { type InputOfIO, type OutputOfIO, type StateGraphIO, withDeclaredKeys } from './state-io.js';

/** Per-key reducers of a state schema. */
export type ReducersOf<TState> = { readonly [TKey in keyof TState]?: AnyReducer };

/** The update a state graph node returns: each key optional, reducer keys take the reducer's update type. */
export type StateUpdate<TState, TReducers> = {
  [TKey in keyof TState]?:
    | (TKey extends keyof TReducers ? InferReducerUpdate<TReducers[TKey], TState[TKey]> : TState[TKey])
    | undefined;
};

/**
 * What a state graph node may return: an update, a `Command`, nothing, or a list of updates and
 * `Command`s applied in order (each item's writes go through the reducers; the gotos add up).
 * A `Command({ graph: Command.PARENT })` (any update and goto) is for the graph this one is a subgraph of.
 */
export type StateNodeReturn<TUpdate, TNodes extends string> =
  | TUpdate
  | Command<TUpdate, TNodes | End>
  | ParentBoundCommand
  | ReadonlyArray<TUpdate | Command<TUpdate, TNodes | End> | undefined | null>
  | undefined
  | null
  | void;

/** A state graph node: reads the state, returns a partial update (or a Command, or streams update chunks). */
export type StateNode<TState, TUpdate, TNodes extends string> =
  | ((
      state: TState,
      ctx: NodeContext,
    ) =>
      | StateNodeReturn<TUpdate, TNodes>
      | Promise<StateNodeReturn<TUpdate, TNodes>>
      | AsyncIterable<TUpdate>)
  | Runnable<TState, TUpdate, unknown>
  | CompiledGraph<never, unknown, string, unknown>;

/**
 * The `[name, node]` pairs of `addSequence`: each name joins the node union. A node's `Command({ goto })`
 * may name the nodes added before the sequence (and END): the names are inferred from the pairs, so the
 * nodes' own types must not depend on them.
 */
export type SequenceNodes<TName extends string, TState, TUpdate, TNodes extends string> = ReadonlyArray<
  readonly [TName, StateNode<TState, TUpdate, TNodes>]
>;

/**
 * The keys a node's input declares beyond the state (its private keys, given at run time by its `input`
 * schema), which it may also write; nothing for a node that reads the state.
 */
export type PrivateKeys<TIn, TState> = TIn extends object ? Omit<TIn, keyof TState> : {};

/** Options of a {@link StateGraph}. */
export interface StateGraphOptions<TReducers> {
  /** Reducers per key; keys without one keep the last value written. */
  readonly reducers?: TReducers;
  /**
   * Schema of the run input (default: every key optional, reducer keys take their update type). An
   * object schema limits the input to its keys; keys the state lacks become channels of their own.
   */
  readonly input?: ZodType;
  /** Schema of the result: `invoke`, `run` and the `values` stream return only its keys. */
  readonly output?: ZodType;
}

/**
 * A graph over shared state: each node reads the state and returns a partial update, applied through
 * per-key reducers after every superstep. Node names grow the type as you add them, so a misspelled
 * edge is a compile error.
 *
 * @example
 * ```ts
 * const graph = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('increment', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'increment')
 *   .addConditionalEdges('increment', (s) => (s.count < 3 ? 'increment' : END))
 *   .compile();
 * await graph.invoke({ count: 0 }); // { count: 3 }
 * ```
 */
export class StateGraph<
  TSchema extends ZodObject,
  TReducers extends ReducersOf<z.infer<TSchema>> = {},
  TNodes extends string = never,
  TIO extends StateGraphIO = {},
> {
  readonly #builder: SpecBuilder;

  constructor(schema: TSchema, options: StateGraphOptions<TReducers> & TIO = {} as TIO) {
    const reducers = (options.reducers ?? {}) as Record<string, AnyReducer | undefined>;
    this.#builder = new SpecBuilder('state', { schema, reducers });
    this.#builder.setSchemas(options.input, options.output);
  }

  /**
   * Adds a node: a function of the state, a `Runnable`, or a compiled graph (a subgraph). A node that
   * only runs through `Send` may annotate its parameter with the Send's input type instead.
   */
  addNode<const TName extends string, TIn = z.infer<TSchema>>(
    name: NewNodeName<TName, TNodes>,
    // NoInfer: a Command's goto in the node's return must not be taken as the node's name.
    node: StateNode<TIn, StateUpdate<z.infer<TSchema>, TReducers>, TNodes | NoInfer<TName>>,
    options?: NodeOptions & { readonly goto?: readonly (TNodes | NoInfer<TName> | End)[] },
  ): StateGraph<TSchema, TReducers, TNodes | TName, TIO>;
  /**
   * Adds a node with private keys: its `input` schema declares keys the state does not have, which the
   * node reads (annotate its parameter with the schema's type) and may write; successors that declare
   * them in their own `input` read them.
   */
  addNode<const TName extends string, TIn extends object>(
    name: NewNodeName<TName, TNodes>,
    node: StateNode<
      TIn,
      StateUpdate<z.infer<TSchema> & PrivateKeys<TIn, z.infer<TSchema>>, TReducers>,
      TNodes | NoInfer<TName>
    >,
    options: NodeOptions & {
      readonly input: ZodType<TIn>;
      readonly goto?: readonly (TNodes | NoInfer<TName> | End)[];
    },
  ): StateGraph<TSchema, TReducers, TNodes | TName, TIO>;
  addNode(name: string, node: unknown, options?: NodeOptions): unknown {
    this.#builder.addNode(name, node, options);
    return this;
  }

  /**
   * Adds a passthrough node: it writes nothing (Eino's `AddPassthroughNode`), a point to join several
   * branches at (`addEdge(['a', 'b'], 'joined')`) or to branch from.
   *
   * @example
   * ```ts
   * const app = new StateGraph(z.object({ n: z.number() }))
   *   .addPassthrough('check')
   *   .addNode('double', (s) => ({ n: s.n * 2 }))
   *   .addEdge(START, 'check')
   *   .addConditionalEdges('check', (s) => (s.n > 0 ? 'double' : END), ['double', END])
   *   .addEdge('double', END)
   *   .compile();
   * await app.invoke({ n: 2 }); // { n: 4 }
   * ```
   */
  addPassthrough<const TName extends string>(
    name: NewNodeName<TName, TNodes>,
    options?: Pick<NodeOptions, 'metadata' | 'defer'>,
  ): StateGraph<TSchema, TReducers, TNodes | TName, TIO> {
    this.#builder.addNode(name, statePassthrough, { kind: 'passthrough', ...options });
    return this as unknown as StateGraph<TSchema, TReducers, TNodes | TName, TIO>;
  }

  /**
   * Adds several nodes and the edges chaining them in the given order (`a → b → c`), in one call, as the
   * reference engine's `addSequence`: a list of `[name, node]` pairs. No edge is added into the first node or out of the last one. A node's
   * `Command({ goto })` may name the nodes added before the sequence, and END.
   *
   * @throws GraphValidationError at `compile()` for an empty sequence or a name that is taken.
   *
   * @example
   * ```ts
   * const app = new StateGraph(z.object({ text: z.string() }))
   *   .addSequence([
   *     ['trim', (s) => ({ text: s.text.trim() })],
   *     ['shout', (s) => ({ text: s.text.toUpperCase() })],
   *   ])
   *   .addEdge(START, 'trim')
   *   .addEdge('shout', END)
   *   .compile();
   * ```
   */
  addSequence<const TName extends string>(
    nodes: SequenceNodes<TName, z.infer<TSchema>, StateUpdate<z.infer<TSchema>, TReducers>, TNodes>,
  ): StateGraph<TSchema, TReducers, TNodes | TName, TIO>;
  addSequence(nodes: ReadonlyArray<readonly [string, unknown]>): unknown {
    const pairs = nodes;
    if (pairs.length === 0) {
      this.#builder.addIssue({
        kind: 'invalid-option',
        at: 'addSequence',
        message: 'addSequence needs at least one node',
      });
      return this;
    }
    pairs.forEach(([name, node], i) => {
      this.#builder.addNode(name, node);
      const previous = pairs[i - 1];
      if (previous) this.#builder.addEdge(previous[0], name);
    });
    return this;
  }

  /** Adds an edge; with a list of sources, `to` waits for all of them (a join). */
  addEdge(from: Start | TNodes | readonly TNodes[], to: TNodes | End): this {
    this.#builder.addEdge(from, to);
    return this;
  }

  /**
   * Adds a conditional edge: after `from` runs, `router` reads the state (including `from`'s write)
   * and returns the next node(s), `END`, or `Send`s. List `targets` to have them drawn and checked.
   */
  addConditionalEdges<const TTarget extends TNodes | End>(
    from: Start | TNodes,
    // NoInfer: the declared targets (or, without them, every node and END) decide what the router may return.
    router: (state: z.infer<TSchema>) => RouterResult<NoInfer<TTarget>, TNodes>,
    targets?: readonly TTarget[],
  ): this {
    this.#builder.addBranch(from, router, targets);
    return this;
  }

  /**
   * Validates the graph and returns its runtime.
   *
   * @throws GraphValidationError with every problem at once.
   */
  compile(
    options?: CompileOptions<TNodes>,
  ): CompiledGraph<
    InputOfIO<TIO, StateUpdate<z.infer<TSchema>, TReducers>>,
    OutputOfIO<TIO, z.infer<TSchema>>,
    TNodes,
    StateUpdate<z.infer<TSchema>, TReducers>
  > {
    return compileSpec(withDeclaredKeys(this.#builder.spec()), options);
  }
}
