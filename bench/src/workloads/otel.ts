// The cost of tracing with @weft/otel on the 100-node chain: no callbacks at all; `tracing.callbacks()`
// with no tracer provider (what an app that has not configured OpenTelemetry pays); and tracing on, with
// an SDK tracer whose spans go to an exporter that drops them (the cost of building the spans, not of
// shipping them). Weft only: the other engines' cells stay empty. The three are timed interleaved.
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { otelTracing } from '@weft/otel';
import { weftChain } from '../graphs/weft-graphs.ts';
import { interleaved, ratio } from '../interleaved.ts';
import type { Row } from '../table.ts';
import { type BenchContext, measures, pick, type Workload } from '../workload.ts';

const NODES = 100;

/** Counts the spans it is given and keeps none. */
class CountingExporter implements SpanExporter {
  spans = 0;
  export(spans: ReadableSpan[], done: (result: { code: 0 }) => void): void {
    this.spans += spans.length;
    done({ code: 0 });
  }
  async shutdown(): Promise<void> {}
}

export const otelWorkload: Workload = {
  name: 'otel',
  async run(context: BenchContext) {
    if (!measures(context, 'weft')) return [];
    const app = weftChain(NODES);
    const invokes = pick(context, 200, 5);
    const off = otelTracing();
    const exporter = new CountingExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const on = otelTracing({ tracerProvider: provider });
    context.log(`  otel: chain ${NODES} × ${invokes}, three variants interleaved`);
    const [baseline, noTracer, traced] = (await interleaved(
      context,
      { prefix: 'otel', size: `chain ${NODES}`, expectedN: NODES },
      [
        { label: 'baseline, no callbacks', once: () => app.invoke({ n: 0 }) },
        { label: 'without a tracer', once: () => app.invoke({ n: 0 }, { callbacks: off.callbacks() }) },
        {
          label: 'tracing on, spans dropped',
          once: () => app.invoke({ n: 0 }, { callbacks: on.callbacks() }),
        },
      ],
      invokes,
    )) as [Row, Row, Row];
    const spansPerInvoke = NODES * 2 + 1;
    const failures =
      exporter.spans > 0 && exporter.spans % spansPerInvoke === 0
        ? []
        : [`otel: expected ${spansPerInvoke} spans per traced invoke, the exporter got ${exporter.spans}`];
    await provider.shutdown();
    return [
      { ...baseline, heap: 'samples interleaved; heap not measured' },
      { ...noTracer, heap: '', notes: [`otel: without a tracer / baseline = ${ratio(noTracer, baseline)}`] },
      {
        ...traced,
        heap: '',
        failures: [...traced.failures, ...failures],
        notes: [
          `otel: tracing on / baseline = ${ratio(traced, baseline)} (${spansPerInvoke} spans per invoke)`,
        ],
      },
    ];
  },
};
