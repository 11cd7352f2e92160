import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { otelTracing, type WeftTracing } from '@weft/otel';

/** The tracing of `weft dev --otlp <url>`, and how to flush it on the way out. */
export interface OtlpExport {
  readonly tracing: WeftTracing;
  /** Exports what is still buffered and stops. */
  shutdown(): Promise<void>;
}

/**
 * Traces the playground's runs to an OTLP/HTTP traces endpoint (JSON encoding), as service
 * `weft-playground`. Contents (inputs, prompts, completions) are not recorded.
 *
 * @example
 * ```ts
 * const otlp = startOtlpExport('http://localhost:4318/v1/traces');
 * const server = await startServer({ app, tracing: otlp.tracing });
 * ```
 */
export function startOtlpExport(url: string): OtlpExport {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'weft-playground' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }), { scheduledDelayMillis: 1000 })],
  });
  return { tracing: otelTracing({ tracerProvider: provider }), shutdown: () => provider.shutdown() };
}
