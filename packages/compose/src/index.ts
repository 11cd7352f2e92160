/**
 * `@weft/compose` — typed graphs compiled into a Pregel/DAG superstep runtime.
 *
 * For people who build and run graphs: the builders (`StateGraph`, `Graph`, `Workflow`, `Chain`), the
 * compiled graph and its run options, events and stream parts, reducers, commands and constants, the
 * errors a run throws, and the in-memory checkpointer, cache and store with the interfaces their
 * database-backed counterparts implement. Other audiences have their own entries: `./store` for authors
 * of checkpointers, caches and document stores; `./testing` for the suites such a store must pass;
 * `./func` for the functional API; `./rx` for rxjs; `./types` for the type-level machinery the builders'
 * signatures use (generic constraints, inference helpers, event bases), for authors of libraries over compose.
 *
 * @packageDocumentation
 */

export { MemoryCache } from './cache/memory-cache.js';
export type { CachePolicy, NodeCache } from './cache/node-cache.js';
export type { BulkSuperstep, BulkUpdate } from './checkpoint/bulk-update.js';
export type { Durability } from './checkpoint/checkpoint-session.js';
export type { Checkpointer, CheckpointSource, JsonValue } from './checkpoint/checkpointer.js';
export { MemoryCheckpointer } from './checkpoint/memory-checkpointer.js';
export { SerializationError } from './checkpoint/serialization-error.js';
export type { StateSnapshot } from './checkpoint/thread-state.js';
export type { UpdateStateOptions } from './checkpoint/thread-write.js';
export type { EffectFence } from './effects/effect-fence.js';
export type { EffectInfo, EffectOptions } from './effects/effect-types.js';
export { abortError } from './errors/abort-error.js';
export { CheckpointConflictError } from './errors/checkpoint-conflict-error.js';
export { CheckpointCorruptError, type CorruptionKind } from './errors/checkpoint-corrupt-error.js';
export { FieldMappingError } from './errors/field-mapping-error.js';
export { GraphValidationError, type ValidationIssue } from './errors/graph-validation-error.js';
export { type InputIssue, InputValidationError } from './errors/input-validation-error.js';
export { NodeError } from './errors/node-error.js';
export { ReducerError } from './errors/reducer-error.js';
export { StateMutationError } from './errors/state-mutation-error.js';
export { StateUpdateError } from './errors/state-update-error.js';
export { StepLimitError } from './errors/step-limit-error.js';
export { isComposeError, WeftError, type WeftErrorCode } from './errors/weft-error.js';
export { WriteConflictError } from './errors/write-conflict-error.js';
export type { Callbacks } from './events/callbacks.js';
export type {
  AgentEventActions,
  AgentEventBody,
  AgentNodeEvent,
  GraphAgentInfo,
  ModelCallEvent,
  ModelCallRequest,
  NodeEvent,
  TokenUsage,
  ToolEndEvent,
  ToolStartEvent,
} from './events/node-events.js';
export type {
  CheckpointSaveEvent,
  ChunkEvent,
  CustomEvent,
  InterruptEvent,
  NodeEndEvent,
  NodeErrorEvent,
  NodeRetryEvent,
  NodeStartEvent,
  RunEndEvent,
  RunErrorEvent,
  RunEvent,
  RunEventType,
  RunStartEvent,
  StepEndEvent,
  StepStartEvent,
} from './events/run-event.js';
export type { RunSubscriber } from './events/run-subscriber.js';
export { type UsageCall, usageTotalsOf } from './events/usage-tally.js';
export type { UsageSummary, UsageTotals } from './events/usage-totals.js';
export type { BuilderError, RouterResult } from './graph/builder-types.js';
export { Chain } from './graph/chain.js';
export type { CompileOptions } from './graph/compile.js';
export {
  type BatchOptions,
  CompiledGraph,
  type Continue,
  type GraphRuntimeOptions,
  type StreamOptions,
} from './graph/compiled-graph.js';
export {
  type DataflowNode,
  Graph,
  type GraphOptions,
  type NodeIO,
  type PassthroughIO,
} from './graph/graph.js';
export type { GraphNode, GraphNodeOptions } from './graph/graph-nodes.js';
export type { InferInput, InferNodes, InferOutput, InferState, InferUpdate } from './graph/infer.js';
export { nestedScope } from './graph/nested-scope.js';
export type { RunResult } from './graph/run-graph.js';
export {
  StateGraph,
  type StateGraphOptions,
  type StateNode,
  type StateNodeReturn,
  type StateUpdate,
} from './graph/state-graph.js';
export type { GraphJSON, GraphJSONEdge, GraphJSONMapping, GraphJSONNode } from './graph/topology-json.js';
export {
  type FieldMapping,
  fromField,
  mapFieldPaths,
  mapFields,
  toField,
} from './graph/workflow/field-mapping.js';
export type { PathValue } from './graph/workflow/mapping-types.js';
export { type AddInputOptions, Workflow, type WorkflowOptions } from './graph/workflow/workflow.js';
export type { NodeContext, RunSubgraphOptions } from './pregel/node-context.js';
export { defaultRetryOn } from './pregel/retry.js';
export type { NodeCallOptions, RunOptions } from './pregel/run-options.js';
export type { PendingInterrupt } from './pregel/task.js';
export { isGraphPause } from './pregel/task-context.js';
export type { GraphSpec } from './pregel/topology.js';
export { type ConcatFunction, concatChunks } from './runnable/concat.js';
export { type RunnableParts, runnable } from './runnable/lambda.js';
export { type CallOptions, isRunnable, type Runnable } from './runnable/runnable.js';
export {
  type AppendReducer,
  appendReducer,
  type MergeReducer,
  mergeReducer,
  type Reducer,
  type SumReducer,
  sumReducer,
} from './state/reducers.js';
export { updateSchemaOf } from './state/update-schema.js';
export type { Embeddings, EmbedOptions } from './store/embeddings.js';
export { HashingEmbeddings, type HashingEmbeddingsOptions } from './store/hashing-embeddings.js';
export { MemoryStore, type StoreOptions } from './store/memory-store.js';
export type {
  Store,
  StoreFilter,
  StoreIndexConfig,
  StoreItem,
  StoreListOptions,
  StorePutOptions,
  StoreSearchItem,
  StoreSearchOptions,
  StoreValue,
} from './store/store.js';
export { StoreConflictError } from './store/store-conflict-error.js';
export { StoreValueError } from './store/store-value-error.js';
export { AsyncQueue } from './stream/async-queue.js';
export type {
  ChunkPart,
  CustomPart,
  StreamMode,
  UpdatePart,
} from './stream/stream-modes.js';
export { Command, type CommandInit, isCommand, type ParentBoundCommand } from './vocabulary/command.js';
export { END, type End, START, type Start } from './vocabulary/constants.js';
export type {
  DataflowNodeOptions,
  NodeOptions,
  RetryPolicy,
  StateHandlers,
} from './vocabulary/node-options.js';
export { isSend, Send } from './vocabulary/send.js';
