// The JSON the playground server sends and the web app reads. Types only: both sides import this file.
import type { RunEvent } from '@weft/compose';

/** A JSON value as the API sends it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A JSON Schema object (draft 2020-12 subset, as `z.toJSONSchema` writes it). */
export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly title?: string;
  readonly description?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly enum?: readonly Json[];
  readonly const?: Json;
  readonly default?: Json;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly [key: string]: unknown;
}

/** A node of a graph's topology (`CompiledGraph.toJSON()`). */
export interface TopologyNode {
  readonly id: string;
  readonly kind: 'function' | 'runnable' | 'subgraph';
  readonly subgraph?: Topology;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** An edge of a graph's topology. */
export interface TopologyEdge {
  readonly source: string;
  readonly target: string;
  /** `data`: a workflow's data-only edge (carries fields, does not trigger). */
  readonly kind: 'static' | 'conditional' | 'join' | 'goto' | 'data';
  readonly dynamic?: boolean;
  /** Workflows: whether the edge carries data, triggers its target (control), or both. */
  readonly flow?: 'data' | 'control' | 'data+control';
  /** Workflows: the field mappings the edge applies (dotted paths, `''` for the whole value). */
  readonly mappings?: ReadonlyArray<{ readonly from: string; readonly to: string }>;
}

/** A graph's topology as `toJSON()` describes it. */
export interface Topology {
  readonly name: string;
  readonly kind: 'state' | 'dataflow';
  readonly mode: 'pregel' | 'dag';
  readonly nodes: readonly TopologyNode[];
  readonly edges: readonly TopologyEdge[];
}

/** A runnable thing the playground serves: a graph or an agent. */
export interface GraphInfo {
  readonly id: string;
  readonly kind: 'graph' | 'agent';
  readonly description: string;
  /** Static breakpoints can be set on its nodes (pregel graphs and agents; not DAG mode). */
  readonly breakpoints: boolean;
  readonly topology: Topology;
  /** Schema of the run input, for the input form. */
  readonly inputSchema: JsonSchema;
}

/** How a run ended (or that it still runs). */
export type RunStatus = 'running' | 'done' | 'interrupted' | 'error' | 'cancelled';

/** What a thread is doing, as the threads list shows it. */
export type ThreadStatus = 'idle' | RunStatus;

/** Static breakpoints of a thread, applied to every run on it. */
export interface Breakpoints {
  readonly before: readonly string[];
  readonly after: readonly string[];
}

/** A conversation or job: one checkpoint history (with forks) of one graph. */
export interface ThreadInfo {
  readonly id: string;
  readonly graphId: string;
  readonly title: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly status: ThreadStatus;
  readonly breakpoints: Breakpoints;
}

/** A pause waiting for a value. */
export interface InterruptInfo {
  readonly id: string;
  readonly value: Json;
  readonly path: readonly string[];
}

/** An error as the API reports it. */
export interface ErrorInfo {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

/** One run (a start, resume, continue or fork) on a thread. */
export interface RunInfo {
  readonly id: string;
  readonly threadId: string;
  readonly graphId: string;
  readonly kind: 'start' | 'resume' | 'continue' | 'fork';
  readonly status: RunStatus;
  readonly startedAt: number;
  readonly endedAt?: number;
  readonly steps: number;
  readonly error?: ErrorInfo;
  readonly interrupts: readonly InterruptInfo[];
  readonly checkpointId?: string;
}

/**
 * A field of an event as JSON carries it: errors become {@link ErrorInfo}, values of unknown type any
 * JSON, everything else as it is (strings, numbers, paths, nested objects of those).
 */
type JsonField<T> = unknown extends T ? Json : T extends Error ? ErrorInfo : T;

/** A run event as JSON: each field through {@link JsonField}. */
type JsonSafe<TEvent> = { readonly [K in keyof TEvent]: JsonField<TEvent[K]> };

/**
 * One of compose's {@link RunEvent}s as the server sends it (JSON-safe) — still the discriminated
 * union on `type`, so a `switch` narrows it.
 */
export type WireRunEvent = RunEvent extends infer TEvent
  ? TEvent extends RunEvent
    ? JsonSafe<TEvent>
    : never
  : never;

/**
 * One event of a run's stream: compose's `RunEvent` (JSON-safe) numbered by its position. Nothing
 * else travels on it; how the run ended comes with the stream's closing `end` message ({@link RunInfo}).
 */
export type WireEvent = WireRunEvent & {
  /** Position in the run's stream, from 0. */
  readonly seq: number;
};

/**
 * The member of {@link WireEvent} with this `type`.
 *
 * @example
 * ```ts
 * const calls = events.filter((e): e is WireEventOf<'model-call'> => e.type === 'model-call');
 * ```
 */
export type WireEventOf<TType extends WireEvent['type']> = Extract<WireEvent, { readonly type: TType }>;

/** A thread's state at one checkpoint (`getState` / `getStateHistory`). */
export interface SnapshotInfo {
  readonly checkpointId: string;
  readonly parentId: string | null;
  readonly step: number;
  readonly source: string;
  readonly createdAt: string;
  readonly values: Json;
  readonly next: readonly string[];
  readonly interrupts: readonly InterruptInfo[];
  readonly metadata: Json;
}

/** The body of every 4xx/5xx answer. */
export interface ApiError {
  readonly error: {
    readonly code: string;
    readonly message: string;
    /** Which fields were wrong, for validation errors (`path` dotted, e.g. `input.target`). */
    readonly issues?: ReadonlyArray<{ readonly path: string; readonly message: string }>;
  };
}
