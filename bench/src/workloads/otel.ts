// The cost of tracing with @weft/otel on the 100-node chain: no callbacks at all; `tracing.callbacks()`
// with no tracer provider (what an app that has not configured OpenTelemetry pays); and tracing on, with
// an SDK tracer whose spans go to an exporter that drops them (the cost of building the spans, not of
// shipping them). Weft only: the other engines' cells stay empty. The three are timed interleaved.
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { otelTracing } from '@weft/otel';
import { weftChain } from '../graphs/weft-graphs.ts';
import { expectEqual, times } from '../harness.ts';
import { measurementRow, type Row } from '../table.ts';
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

function ratio(row: Row, base: Row): string {
  return typeof row.weft === 'number' && typeof base.weft === 'number'
    ? `${(row.weft / base.weft).toFixed(2)}×`
    : '?';
}

/** One variant of the traced chain: its label and one invoke. */
interface Variant {
  readonly label: string;
  readonly once: () => Promise<{ n: number }>;
}

/**
 * Times the variants interleaved (A B C, B C A, C A B, …), so that the load of a shared machine falls on
 * all of them alike and their ratios hold within one run; returns one row per variant.
 */
async function interleaved(
  context: BenchContext,
  variants: readonly Variant[],
  invokes: number,
): Promise<Row[]> {
  const samples = variants.map(() => [] as number[]);
  const failures = variants.map(() => [] as string[]);
  const reps = context.repetitions.reps * 3;
  for (const variant of variants) await times(invokes, variant.once);
  for (let rep = 0; rep < reps; rep++) {
    for (let k = 0; k < variants.length; k++) {
      const i = (rep + k) % variants.length;
      const variant = variants[i] as Variant;
      await context.turn();
      const started = performance.now();
      const state = await times(invokes, variant.once);
      (samples[i] as number[]).push(performance.now() - started);
      try {
        expectEqual('final n', state.n, NODES);
      } catch (error) {
        (failures[i] as string[]).push(String(error));
      }
    }
  }
  return variants.map((variant, i) => {
    const sorted = [...(samples[i] as number[])].sort((x, y) => x - y);
    const medianMs = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
    const error = (failures[i] as string[])[0];
    return measurementRow(
      {
        workload: `otel ${variant.label}: chain ${NODES} × ${invokes}`,
        unit: 'ms/invoke',
        scale: (ms: number) => ms / invokes,
        notes: [],
      },
      [
        {
          engine: 'weft',
          medianMs,
          samplesMs: samples[i] as number[],
          allocatedBytes: Number.NaN,
          ...(error ? { error } : {}),
        },
      ],
    );
  });
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
