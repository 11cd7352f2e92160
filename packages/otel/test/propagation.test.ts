import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { StateGraph } from '@weft/compose';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import { otelTracing } from '../src/index.js';
import { memoryTracing, only, spanTree } from './helpers.js';

const contextManager = new AsyncLocalStorageContextManager();
beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(() => {
  context.disable();
  propagation.disable();
});

const app = new StateGraph(z.object({ n: z.number() }))
  .addNode('inc', async (s) => ({ n: s.n + 1 }))
  .addEdge('__start__', 'inc')
  .addEdge('inc', '__end__')
  .compile({ name: 'inc' });

test('a run started inside an active span is its child', async () => {
  const { exporter, provider, tracing } = memoryTracing();
  const tracer = provider.getTracer('test');
  await tracer.startActiveSpan('handle request', async (span) => {
    await app.invoke({ n: 1 }, { callbacks: tracing.callbacks() });
    span.end();
  });
  const spans = exporter.getFinishedSpans();
  expect(spanTree(spans)).toEqual(['handle request', '  run inc', '    step 0', '      node inc']);
  expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
});

test('an explicit parent wins over the active context', async () => {
  const { exporter, provider, tracing } = memoryTracing();
  const parent = provider.getTracer('test').startSpan('job');
  await app.invoke(
    { n: 1 },
    { callbacks: tracing.callbacks({ parent: trace.setSpan(context.active(), parent) }) },
  );
  parent.end();
  expect(spanTree(exporter.getFinishedSpans())[1]).toBe('  run inc');
});

test('a carrier written in one place continues its trace where a run reads it, under a submit span', async () => {
  const { exporter, provider, tracing } = memoryTracing();
  const tracer = provider.getTracer('test');
  const carrier = tracer.startActiveSpan('client', (span) => {
    const written = tracing.carrier({ graph: 'inc', runId: 'r1', threadId: 't1', kind: 'start' });
    span.end();
    return written;
  });
  expect(carrier?.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  await app.invoke({ n: 1 }, { callbacks: tracing.callbacks({ carrier: carrier ?? {} }) });
  const spans = exporter.getFinishedSpans();
  expect(spanTree(spans)).toEqual([
    'client',
    '  submit inc',
    '    run inc',
    '      step 0',
    '        node inc',
  ]);
  expect(only(spans, 'submit inc').kind).toBe(3); // PRODUCER
  expect(only(spans, 'run inc').kind).toBe(4); // CONSUMER
});

test('without a registered tracer provider, tracing is off and hands out empty callbacks', async () => {
  const tracing = otelTracing();
  expect(tracing.enabled).toBe(false);
  expect(tracing.callbacks()).toEqual({});
  expect(tracing.carrier()).toBeUndefined();
  expect(await app.invoke({ n: 1 }, { callbacks: tracing.callbacks() })).toEqual({ n: 2 });
});

test('a globally registered provider switches tracing on, also for a tracing created before it', async () => {
  const tracing = otelTracing();
  const { exporter, provider } = memoryTracing();
  expect(trace.setGlobalTracerProvider(provider)).toBe(true);
  try {
    expect(tracing.enabled).toBe(true);
    await app.invoke({ n: 1 }, { callbacks: tracing.callbacks() });
    expect(spanTree(exporter.getFinishedSpans())).toEqual(['run inc', '  step 0', '    node inc']);
  } finally {
    trace.disable();
  }
});
