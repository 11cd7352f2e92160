import {
  type Context,
  context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  type TextMapPropagator,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { type Callbacks, WeftError } from '@weft/compose';
import { extractCarrier, injectCarrier } from './internal/carrier.js';
import { PausedRuns } from './internal/paused-runs.js';
import { RunListener } from './internal/run-listener.js';
import type { TraceSettings } from './internal/trace-settings.js';

/**
 * The instrumentation scope name of every span this package opens (filter or sample on it).
 *
 * @example
 * ```ts
 * import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
 * const exporter = new InMemorySpanExporter();
 * const weftSpans = exporter.getFinishedSpans().filter((span) => span.instrumentationScope.name === TRACER_NAME);
 * ```
 */
export const TRACER_NAME = '@weft/otel';
const TRACER_VERSION = '0.1.0';
const DEFAULT_CONTENT_LIMIT = 16_384;

/**
 * Options of {@link otelTracing}.
 *
 * @example
 * ```ts
 * import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
 * const provider = new BasicTracerProvider();
 * const options: OtelTracingOptions = { tracerProvider: provider, captureContent: { maxLength: 4096 } };
 * ```
 */
export interface OtelTracingOptions {
  /** Where spans go (default: the global provider, `trace.getTracerProvider()`). */
  readonly tracerProvider?: TracerProvider;
  /**
   * Record prompts, completions, tool arguments and results, run inputs and outputs, interrupt and
   * resume values on spans (default `false`). They may hold secrets and personal data: switch this on
   * only for backends allowed to store them. `maxLength` cuts each value (default 16384 characters).
   */
  readonly captureContent?: boolean | { readonly maxLength?: number };
  /** Writes and reads trace context for worker jobs (default: the global propagator, W3C as fallback). */
  readonly propagator?: TextMapPropagator;
}

/**
 * Options of {@link WeftTracing.callbacks}: where one run's spans hang.
 *
 * @example
 * ```ts
 * const tracing = otelTracing();
 * const callbacks = tracing.callbacks({ carrier: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } });
 * ```
 */
export interface TraceRunOptions {
  /** The parent of the run span (default: the context active when the run starts). */
  readonly parent?: Context | undefined;
  /** Trace context fields from another process, as {@link WeftTracing.carrier} wrote them (none: `undefined`). */
  readonly carrier?: Readonly<Record<string, string>> | undefined;
  /**
   * The trace context `onPause` gave when the run this one continues paused (stored by another process,
   * e.g. `@weft/worker`'s journal): a resumed run's span links to that run's span.
   */
  readonly continues?: Readonly<Record<string, string>> | undefined;
  /** Receives the run span's trace context when the run pauses, to store for the run that resumes it. */
  readonly onPause?: ((carrier: Readonly<Record<string, string>>) => void) | undefined;
  /**
   * The conversation the run belongs to (a session id): `gen_ai.conversation.id` on its `invoke_agent`
   * and `chat` spans.
   */
  readonly conversationId?: string | undefined;
}

/**
 * What a submitted worker job is, as `@weft/worker`'s client describes it to {@link WeftTracing.carrier}.
 *
 * @example
 * ```ts
 * const job: SubmittedJob = { graph: 'counter', runId: 'r1', threadId: 't1', kind: 'start' };
 * ```
 */
export interface SubmittedJob {
  readonly graph: string;
  readonly runId: string;
  readonly threadId: string;
  readonly kind: string;
}

/**
 * Turns Weft runs into OpenTelemetry spans. Created once; each run gets its subscriber from
 * {@link WeftTracing.callbacks}.
 *
 * @example
 * ```ts
 * const app = new StateGraph(z.object({ question: z.string() }))
 *   .addNode('answer', (s) => ({ question: s.question.trim() }))
 *   .addEdge(START, 'answer')
 *   .addEdge('answer', END)
 *   .compile();
 * const tracing = otelTracing();
 * await app.invoke({ question: 'hi' }, { callbacks: tracing.callbacks() });
 * ```
 */
export interface WeftTracing {
  /** True when a tracer provider is registered (or was given): runs are traced. */
  readonly enabled: boolean;
  /**
   * A subscriber of one run's (or several runs') events that opens its spans. Without a tracer it is
   * `{}`, which costs a run nothing: no events, no spans, no attribute objects.
   */
  callbacks(options?: TraceRunOptions): Callbacks;
  /**
   * Trace context fields for a worker job (W3C `traceparent`, plus whatever the propagator writes), under a
   * short `submit` span child of the active context; `undefined` without a tracer. Pass it as the worker
   * client's `carrier` option.
   */
  carrier(job?: SubmittedJob): Readonly<Record<string, string>> | undefined;
}

/**
 * Creates the tracing of Weft runs: run → superstep → node → (subgraph steps → nodes …) → model call →
 * tool call spans, with GenAI semantic-convention attributes on model and tool spans, errors and
 * retries recorded, interrupts and resumes as span events, and a resumed run linked to the run it
 * continues.
 *
 * @throws WeftError `INVALID_ARGUMENT` for a `captureContent.maxLength` below 1.
 * @example
 * ```ts
 * import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
 * const exporter = new InMemorySpanExporter();
 * const app = new StateGraph(z.object({ question: z.string() }))
 *   .addNode('answer', (s) => ({ question: s.question.trim() }))
 *   .addEdge(START, 'answer')
 *   .addEdge('answer', END)
 *   .compile({ checkpointer: new MemoryCheckpointer() });
 * const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
 * const tracing = otelTracing({ tracerProvider: provider });
 * await app.invoke({ question: 'hi' }, { threadId: 't1', callbacks: tracing.callbacks() });
 * ```
 */
export function otelTracing(options: OtelTracingOptions = {}): WeftTracing {
  const contentLimit = contentLimitOf(options.captureContent);
  const paused = new PausedRuns(10_000);
  const tracerOf = (): Tracer | undefined => activeTracer(options.tracerProvider);
  const { propagator } = options;
  return {
    get enabled() {
      return tracerOf() !== undefined;
    },
    callbacks(runOptions = {}) {
      const tracer = tracerOf();
      if (!tracer) return {};
      const settings: TraceSettings = { tracer, contentLimit, paused };
      const { carrier, continues, onPause, conversationId } = runOptions;
      const listener = new RunListener(settings, () => {
        const base = runOptions.parent ?? context.active();
        const links = {
          continues: continues && trace.getSpanContext(extractCarrier(ROOT_CONTEXT, continues, propagator)),
          onPause,
          conversationId,
          inject: (span: Span) => injectCarrier(trace.setSpan(ROOT_CONTEXT, span), propagator),
        };
        return carrier
          ? { parent: extractCarrier(base, carrier, propagator), kind: SpanKind.CONSUMER, ...links }
          : { parent: base, kind: SpanKind.INTERNAL, ...links };
      });
      return { onEvent: (event) => listener.onEvent(event) };
    },
    carrier(job) {
      const tracer = tracerOf();
      if (!tracer) return undefined;
      const span = tracer.startSpan(
        job ? `submit ${job.graph}` : 'submit',
        {
          kind: SpanKind.PRODUCER,
          ...(job
            ? {
                attributes: {
                  'weft.graph': job.graph,
                  'weft.run.id': job.runId,
                  'weft.thread.id': job.threadId,
                  'weft.job.kind': job.kind,
                },
              }
            : {}),
        },
        context.active(),
      );
      span.end();
      return injectCarrier(trace.setSpan(context.active(), span), propagator);
    },
  };
}

/** The tracer to use, or `undefined` when the provider is the API's proxy with nothing registered behind it. */
function activeTracer(provider: TracerProvider | undefined): Tracer | undefined {
  const source = provider ?? trace.getTracerProvider();
  const proxy = source as { getDelegateTracer?: (name: string, version?: string) => Tracer | undefined };
  if (typeof proxy.getDelegateTracer === 'function' && !proxy.getDelegateTracer(TRACER_NAME, TRACER_VERSION))
    return undefined;
  return source.getTracer(TRACER_NAME, TRACER_VERSION);
}

function contentLimitOf(capture: OtelTracingOptions['captureContent']): number | undefined {
  if (!capture) return undefined;
  const limit = capture === true ? DEFAULT_CONTENT_LIMIT : (capture.maxLength ?? DEFAULT_CONTENT_LIMIT);
  if (!(Number.isInteger(limit) && limit >= 1)) {
    throw new WeftError(
      'INVALID_ARGUMENT',
      `captureContent.maxLength must be a positive integer, got ${limit}`,
    );
  }
  return limit;
}
