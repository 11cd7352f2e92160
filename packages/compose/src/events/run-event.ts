import type {
  AgentNodeEvent,
  GraphAgentInfo,
  ModelCallEvent,
  ToolEndEvent,
  ToolStartEvent,
} from './node-events.js';
import type { RunEventBase } from './run-event-base.js';
import type { UsageTotals } from './usage-totals.js';

/** A run started. */
export interface RunStartEvent extends RunEventBase {
  readonly type: 'run-start';
  readonly graph: string;
  readonly input: unknown;
  readonly threadId?: string;
  /** The agent the graph runs (`compile({ agent })`), when it is an agent's graph. */
  readonly agent?: GraphAgentInfo;
}
/** A run finished. */
export interface RunEndEvent extends RunEventBase {
  readonly type: 'run-end';
  readonly graph: string;
  readonly output: unknown;
  readonly steps: number;
  readonly durationMs: number;
  /** `interrupted` when the run paused for input. */
  readonly status: 'done' | 'interrupted';
  /** The run's `model-call` events added up (nested graphs and agents included); absent without any. */
  readonly usageTotals?: UsageTotals;
}
/** A run failed (or was aborted). */
export interface RunErrorEvent extends RunEventBase {
  readonly type: 'run-error';
  readonly graph: string;
  readonly error: Error;
  readonly durationMs: number;
  /** The model calls made before it failed, added up; absent without any. */
  readonly usageTotals?: UsageTotals;
}
/** A superstep began. */
export interface StepStartEvent extends RunEventBase {
  readonly type: 'step-start';
  readonly step: number;
  /** The nodes of this step's tasks, in task order. */
  readonly tasks: readonly string[];
  /** In a nested graph: the task of the enclosing graph it runs in (tells apart parallel nested runs). */
  readonly parentTaskId?: string;
  /** In a nested graph run with `ctx.runSubgraph(graph, input, { key })`: that key (an agent tool's call id). */
  readonly key?: string;
  /** In a nested graph that is an agent's (`compile({ agent })`): that agent. */
  readonly agent?: GraphAgentInfo;
}
/** A superstep's writes were applied. */
export interface StepEndEvent extends RunEventBase {
  readonly type: 'step-end';
  readonly step: number;
  readonly durationMs: number;
  /** State after the step (state graphs). */
  readonly values: unknown;
}
/** A node task started. */
export interface NodeStartEvent extends RunEventBase {
  readonly type: 'node-start';
  readonly step: number;
  readonly node: string;
  readonly taskId: string;
  /** The input; `undefined` when the task reads a stream (`streamFrom`). */
  readonly input: unknown;
  readonly attempt: number;
  /**
   * Set when the task's input streams in as it comes (ADR 022): the id of the task producing it, whose
   * `chunk` events are that stream.
   */
  readonly streamFrom?: string;
}
/** A node task finished. */
export interface NodeEndEvent extends RunEventBase {
  readonly type: 'node-end';
  readonly step: number;
  readonly node: string;
  readonly taskId: string;
  readonly output: unknown;
  readonly durationMs: number;
  /** True when the output came from the node cache (the node did not run; see `cachePolicy`). */
  readonly cached?: boolean;
}
/** A node task failed for good (after its retries). */
export interface NodeErrorEvent extends RunEventBase {
  readonly type: 'node-error';
  readonly step: number;
  readonly node: string;
  readonly taskId: string;
  readonly error: Error;
  readonly attempt: number;
  readonly durationMs: number;
}
/** A node task failed and will be retried. */
export interface NodeRetryEvent extends RunEventBase {
  readonly type: 'node-retry';
  readonly step: number;
  readonly node: string;
  readonly taskId: string;
  readonly error: Error;
  readonly attempt: number;
  readonly delayMs: number;
}
/** A streaming node produced a chunk (a model token, for one), or a node sent one with `ctx.chunk`. */
export interface ChunkEvent extends RunEventBase {
  readonly type: 'chunk';
  readonly step: number;
  readonly node: string;
  readonly taskId: string;
  readonly chunk: unknown;
  /** The agent whose model produced it, when an agent's node sent it. */
  readonly agent?: string;
  /** That agent's path among agents (`team.helper`), when it is nested. */
  readonly branch?: string;
}
/** A node emitted a custom value with `ctx.emit`. */
export interface CustomEvent extends RunEventBase {
  readonly type: 'custom';
  readonly step: number;
  readonly node: string;
  readonly taskId: string;
  readonly data: unknown;
}
/** A checkpoint was stored. */
export interface CheckpointSaveEvent extends RunEventBase {
  readonly type: 'checkpoint-save';
  readonly step: number;
  readonly checkpointId: string;
  readonly threadId: string;
}
/** A node paused the run for input. */
export interface InterruptEvent extends RunEventBase {
  readonly type: 'interrupt';
  readonly step: number;
  readonly node: string;
  readonly interruptId: string;
  readonly value: unknown;
}

/** Everything a run reports, as one discriminated union on `type`. */
export type RunEvent =
  | RunStartEvent
  | RunEndEvent
  | RunErrorEvent
  | StepStartEvent
  | StepEndEvent
  | NodeStartEvent
  | NodeEndEvent
  | NodeErrorEvent
  | NodeRetryEvent
  | ChunkEvent
  | CustomEvent
  | CheckpointSaveEvent
  | InterruptEvent
  | ModelCallEvent
  | ToolStartEvent
  | ToolEndEvent
  | AgentNodeEvent;

/** The `type` tags of {@link RunEvent}. */
export type RunEventType = RunEvent['type'];
