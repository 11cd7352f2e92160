import type { CompiledGraph } from './compiled-graph.js';

/** The input type of a compiled graph. */
export type InferInput<TGraph> =
  TGraph extends CompiledGraph<infer TInput, infer _TOutput, infer _TNodes, infer _TUpdate> ? TInput : never;
/** The output type of a compiled graph (the state, for state graphs). */
export type InferOutput<TGraph> =
  TGraph extends CompiledGraph<infer _TInput, infer TOutput, infer _TNodes, infer _TUpdate> ? TOutput : never;
/** The state type of a compiled state graph (same as its output). */
export type InferState<TGraph> = InferOutput<TGraph>;
/** The node-name union of a compiled graph. */
export type InferNodes<TGraph> =
  TGraph extends CompiledGraph<infer _TInput, infer _TOutput, infer TNodes, infer _TUpdate> ? TNodes : never;
/** The update type a node of a compiled state graph returns. */
export type InferUpdate<TGraph> =
  TGraph extends CompiledGraph<infer _TInput, infer _TOutput, infer _TNodes, infer TUpdate> ? TUpdate : never;
