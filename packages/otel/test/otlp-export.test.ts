import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { StateGraph } from '@weft/compose';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import { otelTracing } from '../src/index.js';
import { type OtlpReceiver, receivedTree, startOtlpReceiver } from '../src/testing/index.js';

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver.close());

test('spans reach an OTLP/HTTP receiver with their tree, ids and attributes', async () => {
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: receiver.url }))],
  });
  const tracing = otelTracing({ tracerProvider: provider });
  const app = new StateGraph(z.object({ text: z.string() }))
    .addNode('upper', (s) => ({ text: s.text.toUpperCase() }))
    .addNode('fail', () => {
      throw new Error('no way');
    })
    .addEdge('__start__', 'upper')
    .addEdge('upper', 'fail')
    .addEdge('fail', '__end__')
    .compile({ name: 'shout' });
  await expect(
    app.invoke({ text: 'hi' }, { threadId: 'otlp-1', callbacks: tracing.callbacks() }),
  ).rejects.toThrow(/no way/);
  await provider.forceFlush();
  await receiver.until((spans) => spans.some((s) => s.name === 'run shout'));
  await provider.shutdown();
  const spans = receiver.spans;
  expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
  expect(spans[0]?.traceId).toMatch(/^[0-9a-f]{32}$/);
  const tree = receivedTree(spans, (s) => (s.statusCode === 2 ? '[error]' : ''));
  expect(tree).toEqual([
    'run shout [error]',
    '  step 0',
    '    node upper',
    '  step 1 [error]',
    '    node fail [error]',
  ]);
  const run = spans.find((s) => s.name === 'run shout');
  expect(run?.attributes).toMatchObject({
    'weft.graph': 'shout',
    'weft.thread.id': 'otlp-1',
    'weft.run.status': 'error',
  });
  expect(run?.events).toEqual(['exception']);
  expect(spans.find((s) => s.name === 'node fail')?.attributes['weft.node.path']).toEqual(['fail']);
});
