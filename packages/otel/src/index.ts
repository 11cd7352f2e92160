// @weft/otel — OpenTelemetry tracing of Weft runs, on @opentelemetry/api.

export {
  type OtelTracingOptions,
  otelTracing,
  type SubmittedJob,
  TRACER_NAME,
  type TraceRunOptions,
  type WeftTracing,
} from './otel-tracing.js';
