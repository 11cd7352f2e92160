/**
 * `@weft/compose/types` — the type-level machinery behind compose's signatures, for authors of libraries
 * built over compose (packages that emit node events, generic helpers over runnables, reducers and field
 * mappings). People who build and run graphs never need to name these: the builders infer them. Types only;
 * this entry has no runtime code.
 *
 * @packageDocumentation
 */
export type { NodeEventInit } from '../events/node-events.js';
export type { RunEventBase } from '../events/run-event-base.js';
export type { NewNodeName } from '../graph/builder-types.js';
export type { EdgeCheck } from '../graph/graph.js';
export type { ReducersOf, SequenceNodes } from '../graph/state-graph.js';
export type { AnyFieldMapping } from '../graph/workflow/field-mapping.js';
export type { MissingField } from '../graph/workflow/mapping-types.js';
export type { NodeOptionsByName } from '../pregel/run-options.js';
export type { AnyRunnable } from '../runnable/runnable.js';
export type { AnyReducer, InferReducerUpdate } from '../state/reducers.js';
export type { StateSchemaSource, ZodNamespace } from '../state/update-schema.js';
export type { InferStreamPart, StreamParts } from '../stream/stream-modes.js';
