import type { Context, SpanKind, Tracer } from '@opentelemetry/api';
import type { PausedRuns } from './paused-runs.js';

/** What every run trace of one tracing instance shares. */
export interface TraceSettings {
  readonly tracer: Tracer;
  /** Longest content attribute when prompts, outputs and values are captured; `undefined`: not captured. */
  readonly contentLimit: number | undefined;
  readonly paused: PausedRuns;
}

/** Where a run span starts: its parent context, its kind, and links (set by the caller). */
export interface RunOrigin {
  readonly parent: Context;
  readonly kind: SpanKind;
}
