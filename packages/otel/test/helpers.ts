import type { SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { type OtelTracingOptions, otelTracing, type WeftTracing } from '../src/index.js';

/** A tracer provider exporting to memory, and a tracing on it. */
export interface MemoryTracing {
  readonly exporter: InMemorySpanExporter;
  readonly provider: BasicTracerProvider;
  readonly tracing: WeftTracing;
}

export function memoryTracing(options: Omit<OtelTracingOptions, 'tracerProvider'> = {}): MemoryTracing {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, provider, tracing: otelTracing({ ...options, tracerProvider: provider }) };
}

/**
 * The finished spans as an indented tree, children in start order: `name` plus, per span, the
 * `[error]` mark for an error status and the extra labels `label(span)` returns.
 */
export function spanTree(
  spans: readonly ReadableSpan[],
  label: (span: ReadableSpan) => string = () => '',
): string[] {
  const byParent = new Map<string | undefined, ReadableSpan[]>();
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    const list = byParent.get(key) ?? [];
    list.push(span);
    byParent.set(key, list);
  }
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number): void => {
    const children = [...(byParent.get(parent) ?? [])].sort(byStart);
    for (const span of children) {
      const error = span.status.code === (2 satisfies SpanStatusCode.ERROR) ? ' [error]' : '';
      const extra = label(span);
      lines.push(`${'  '.repeat(depth)}${span.name}${error}${extra ? ` ${extra}` : ''}`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}

function byStart(a: ReadableSpan, b: ReadableSpan): number {
  const [as, ans] = a.startTime;
  const [bs, bns] = b.startTime;
  return as - bs || ans - bns;
}

/** The one span named `name` (throws when there is not exactly one). */
export function only(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((span) => span.name === name);
  if (found.length !== 1) throw new Error(`expected one span "${name}", found ${found.length}`);
  return found[0] as ReadableSpan;
}
