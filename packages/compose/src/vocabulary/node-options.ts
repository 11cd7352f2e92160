import type { ZodType } from 'zod';
import type { CachePolicy } from '../cache/node-cache.js';
import type { ConcatFunction } from '../runnable/concat.js';

/**
 * When and how often a failing node is tried again. Delays grow as
 * `initialDelayMs * backoffFactor^(attempt-1)`, capped at `maxDelayMs`, with full jitter by default.
 */
export interface RetryPolicy {
  /** Total attempts including the first (default 3 when a policy is given). */
  readonly maxAttempts?: number;
  /** Delay before the second attempt (default 100 ms). */
  readonly initialDelayMs?: number;
  /** Growth of the delay per attempt (default 2). */
  readonly backoffFactor?: number;
  /** Upper bound of one delay (default 10 s). */
  readonly maxDelayMs?: number;
  /** Randomise each delay between 50% and 100% of its value (default true). */
  readonly jitter?: boolean;
  /**
   * Which errors are retried (default {@link defaultRetryOn}: LangGraph.js's predicate — not 400–407 or
   * 409 HTTP errors, cancels, `ECONNABORTED` or `insufficient_quota`). Aborts, interrupts and Weft
   * definition errors are never retried, whatever this says.
   */
  readonly retryOn?: (error: Error) => boolean;
}

/** Options of `addNode` shared by every graph kind. */
export interface NodeOptions {
  /** Retry policy for this node. */
  readonly retry?: RetryPolicy;
  /** Fails an attempt that takes longer (the node's `ctx.signal` fires). */
  readonly timeoutMs?: number;
  /** Run only when nothing else is pending (e.g. a final aggregation after uneven branches). */
  readonly defer?: boolean;
  /** Validates the node's input before it runs. */
  readonly input?: ZodType;
  /** Validates the node's output before it is applied. */
  readonly output?: ZodType;
  /** Free-form data shown in `toJSON()` and the playground. */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Combines a streaming node's chunks into its output (default: `concatChunks`). */
  readonly concat?: ConcatFunction;
  /** Nodes this node may route to with `Command({ goto })` (drawn and validated at compile time). */
  readonly goto?: readonly string[];
  /** Reuse this node's write for an input seen within `ttl` seconds (needs `compile({ cache })`). */
  readonly cachePolicy?: CachePolicy;
  /**
   * What kind of node this is (`model`, `tools`, `retriever`...): a run's `kindOptions[kind]` reach every
   * node of this kind as `ctx.options`, nested graphs included (Eino's per-component call options).
   */
  readonly kind?: string;
}

/**
 * State handlers of a dataflow node (Eino's `WithStatePreHandler` / `WithStatePostHandler`): they see
 * the graph's local state (`new Graph({ localState })`, one per run) next to the value they rewrite.
 * A handler may change the state in place; nodes read it as `ctx.localState`.
 */
export interface StateHandlers<TIn, TOut> {
  /**
   * Rewrites the node's input before it runs (after its input schema, if any, checked it). A node with
   * `before` but no `beforeStream` needs its whole input, so a stream flowing into it is joined first.
   */
  readonly before?: (input: TIn, state: never) => TIn | Promise<TIn>;
  /**
   * Rewrites a node's input stream as it comes (Eino's `WithStreamStatePreHandler`): when the node reads
   * a stream (a `transform` runnable fed by a streaming predecessor or by the graph's own stream input,
   * ADR 022), it reads what this yields. A node that gets a whole value instead runs `before` when
   * given, else this on the value as one chunk, the chunks it yields joined with `concatChunks`.
   */
  readonly beforeStream?: (chunks: AsyncIterable<TIn>, state: never) => AsyncIterable<TIn>;
  /**
   * Rewrites the node's output before its successors see it. For a streaming node it gets the joined
   * output, unless `afterStream` is given. A `Command` passes untouched.
   */
  readonly after?: (output: TOut, state: never) => TOut | Promise<TOut>;
  /**
   * Rewrites a streaming node's chunks as they come (Eino's `WithStreamStatePostHandler`); the chunks
   * it yields are what is joined and reported. When given, `after` applies only to non-streamed output.
   */
  readonly afterStream?: (chunks: AsyncIterable<TOut>, state: never) => AsyncIterable<TOut>;
}

/** Extra `addNode` options of dataflow graphs. */
export interface DataflowNodeOptions extends NodeOptions {
  /** See {@link StateHandlers.before} (typed by `Graph.addNode`). */
  readonly before?: (input: never, state: never) => unknown;
  /** See {@link StateHandlers.after}. */
  readonly after?: (output: never, state: never) => unknown;
  /** See {@link StateHandlers.afterStream}. */
  readonly afterStream?: (chunks: never, state: never) => AsyncIterable<unknown>;
  /** See {@link StateHandlers.beforeStream}. */
  readonly beforeStream?: (chunks: never, state: never) => AsyncIterable<unknown>;
  /**
   * Builds this node's input from everything that reached it since it last ran (one input or several,
   * fan-in), given in arrival order with their source names. Always called when set, so the input type
   * does not depend on how many predecessors fired.
   */
  readonly merge?: (inputs: readonly unknown[], sources: readonly string[]) => unknown;
  /** Wraps this node's output as `{ [outputKey]: output }`, so fan-in merges outputs key by key. */
  readonly outputKey?: string;
}
