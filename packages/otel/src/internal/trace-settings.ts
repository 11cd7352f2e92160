import type { Context, Span, SpanContext, SpanKind, Tracer } from '@opentelemetry/api';
import type { PausedRuns } from './paused-runs.js';

/** What every run trace of one tracing instance shares. */
export interface TraceSettings {
  readonly tracer: Tracer;
  /** Longest content attribute when prompts, outputs and values are captured; `undefined`: not captured. */
  readonly contentLimit: number | undefined;
  readonly paused: PausedRuns;
}

/** Where a run span starts: its parent context, its kind, and what it continues. */
export interface RunOrigin {
  readonly parent: Context;
  readonly kind: SpanKind;
  /** The span of the run this one continues, read from a stored carrier (another process's run). */
  readonly continues?: SpanContext | undefined;
  /** Receives the run span's trace context when the run pauses, to store for the run that resumes it. */
  readonly onPause?: ((carrier: Record<string, string>) => void) | undefined;
  /** Writes a span's trace context into a carrier (for `onPause`). */
  readonly inject: (span: Span) => Record<string, string>;
  /** The conversation (session) the run belongs to: `gen_ai.conversation.id` on agent and model spans. */
  readonly conversationId?: string | undefined;
}
