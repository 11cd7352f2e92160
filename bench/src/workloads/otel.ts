// The cost of tracing with @weft/otel on the 100-node chain: no callbacks at all; `tracing.callbacks()`
// with no tracer provider (what an app that has not configured OpenTelemetry pays); and tracing on, with
// an SDK tracer whose spans go to an exporter that drops them (the cost of building the spans, not of
// shipping them). Weft only: the other engines' cells stay empty.
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { otelTracing } from '@weft/otel';
import { weftChain } from '../graphs/weft-graphs.ts';
import { expectEqual } from '../harness.ts';
import type { Row } from '../table.ts';
import { type BenchContext, batched, compareRow, measures, pick, type Workload } from '../workload.ts';

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

function ratio(row: Row, base: Row): string {
  return typeof row.weft === 'number' && typeof base.weft === 'number'
    ? `${(row.weft / base.weft).toFixed(2)}×`
    : '?';
}

export const otelWorkload: Workload = {
  name: 'otel',
  async run(context: BenchContext) {
    if (!measures(context, 'weft')) return [];
    const app = weftChain(NODES);
    const invokes = pick(context, 20, 1);
    const off = otelTracing();
    const exporter = new CountingExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const on = otelTracing({ tracerProvider: provider });
    const row = (label: string, once: () => Promise<{ n: number }>) =>
      compareRow(context, {
        workload: `otel ${label}: chain ${NODES} × ${invokes}`,
        unit: 'ms/invoke',
        scale: (ms: number) => ms / invokes,
        runs: batched(invokes, { weft: once }),
        once: { weft: once },
        check: (state: { n: number }) => expectEqual('final n', state.n, NODES),
      });
    const baseline = await row('baseline, no callbacks', () => app.invoke({ n: 0 }));
    const noTracer = await row('without a tracer', () =>
      app.invoke({ n: 0 }, { callbacks: off.callbacks() }),
    );
    const before = exporter.spans;
    const traced = await row('tracing on, spans dropped', () =>
      app.invoke({ n: 0 }, { callbacks: on.callbacks() }),
    );
    const spansPerInvoke = NODES * 2 + 1;
    const failures =
      exporter.spans > before && (exporter.spans - before) % spansPerInvoke === 0
        ? []
        : [
            `otel: expected ${spansPerInvoke} spans per traced invoke, the exporter got ${exporter.spans - before}`,
          ];
    await provider.shutdown();
    return [
      baseline,
      {
        ...noTracer,
        ratios: false,
        notes: [`otel: without a tracer / baseline = ${ratio(noTracer, baseline)}`],
      },
      {
        ...traced,
        ratios: false,
        failures: [...traced.failures, ...failures],
        notes: [
          `otel: tracing on / baseline = ${ratio(traced, baseline)} (${spansPerInvoke} spans per invoke)`,
        ],
      },
    ];
  },
};
