import { Command, MemoryCheckpointer, StateGraph } from '@weft/compose';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { memoryTracing, only, spanTree } from './helpers.js';

const schema = z.object({ order: z.string(), approved: z.boolean().optional(), log: z.array(z.string()) });

function approvalGraph() {
  return new StateGraph(schema)
    .addNode('prepare', (s) => ({ log: [...s.log, 'prepare'] }))
    .addNode('approve', (s, ctx) => {
      const approved = ctx.interrupt<boolean>({ question: `ship ${s.order}?`, secret: 'sk-123' });
      return { approved, log: [...s.log, 'approve'] };
    })
    .addNode('ship', (s) => ({ log: [...s.log, s.approved ? 'shipped' : 'held'] }))
    .addEdge('__start__', 'prepare')
    .addEdge('prepare', 'approve')
    .addEdge('approve', 'ship')
    .addEdge('ship', '__end__')
    .compile({ name: 'approval', checkpointer: new MemoryCheckpointer() });
}

test('a paused run ends with an interrupt event, and the run that resumes it links to it', async () => {
  const { exporter, tracing } = memoryTracing();
  const app = approvalGraph();
  const paused = await app.run(
    { order: 'A-17', log: [] },
    { threadId: 'order-17', callbacks: tracing.callbacks() },
  );
  expect(paused.status).toBe('interrupted');
  await app.invoke(new Command({ resume: true }), { threadId: 'order-17', callbacks: tracing.callbacks() });
  const spans = exporter.getFinishedSpans();
  const status = (s: (typeof spans)[number]) => {
    const value = s.attributes['weft.run.status'] ?? s.attributes['weft.status'];
    return value === undefined ? '' : `(${value})`;
  };
  expect(spanTree(spans, status)).toEqual([
    'run approval (interrupted)',
    '  step 0',
    '    node prepare',
    '  step 1 (interrupted)',
    '    node approve (interrupted)',
    'run approval (done)',
    '  step 1',
    '    node approve',
    '  step 2',
    '    node ship',
  ]);
  const [first, second] = spans.filter((s) => s.name === 'run approval');
  if (!first || !second) throw new Error('two runs expected');
  expect(second.spanContext().traceId).not.toBe(first.spanContext().traceId);
  expect(second.links.map((l) => l.context.spanId)).toEqual([first.spanContext().spanId]);
  expect(second.attributes['weft.run.resumed']).toBe(true);
  expect(second.events.map((e) => e.name)).toEqual(['weft.resume']);
  const interrupt = first.events.find((e) => e.name === 'weft.interrupt');
  expect(interrupt?.attributes?.['weft.interrupt.id']).toEqual(paused.interrupts[0]?.id);
  expect(interrupt?.attributes?.['weft.interrupt.value']).toBeUndefined();
  const pausedNode = spans.find(
    (s) => s.name === 'node approve' && s.attributes['weft.status'] === 'interrupted',
  );
  expect(pausedNode?.events.map((e) => e.name)).toEqual(['weft.interrupt']);
  expect(JSON.stringify(spans.map((s) => [s.attributes, s.events]))).not.toContain('sk-123');
});

test('with captureContent, inputs, outputs, interrupt and resume values are recorded', async () => {
  const { exporter, tracing } = memoryTracing({ captureContent: true });
  const app = approvalGraph();
  await app.invoke({ order: 'B-2', log: [] }, { threadId: 'b2', callbacks: tracing.callbacks() });
  await app.invoke(new Command({ resume: false }), { threadId: 'b2', callbacks: tracing.callbacks() });
  const [first, second] = exporter.getFinishedSpans().filter((s) => s.name === 'run approval');
  expect(JSON.parse(String(first?.attributes['weft.run.input']))).toEqual({ order: 'B-2', log: [] });
  const interrupt = first?.events.find((e) => e.name === 'weft.interrupt');
  // Captured content is recorded as it is, except credentials (a `secret` field is one): ADR 030.
  expect(JSON.parse(String(interrupt?.attributes?.['weft.interrupt.value']))).toEqual({
    question: 'ship B-2?',
    secret: '[REDACTED]',
  });
  expect(second?.attributes['weft.resume.value']).toBe('false');
  expect(JSON.parse(String(second?.attributes['weft.run.output']))).toMatchObject({
    approved: false,
    log: ['prepare', 'approve', 'held'],
  });
});

test('captureContent.maxLength cuts long values and must be a positive integer', async () => {
  const { exporter, tracing } = memoryTracing({ captureContent: { maxLength: 8 } });
  const app = approvalGraph();
  await app.invoke({ order: 'C-3', log: [] }, { threadId: 'c3', callbacks: tracing.callbacks() });
  const run = exporter.getFinishedSpans().find((s) => s.name === 'run approval');
  expect(run?.attributes['weft.run.input']).toMatch(/^\{"order"…\[\d+ more characters\]$/);
  expect(() => memoryTracing({ captureContent: { maxLength: 0 } })).toThrow(
    /captureContent.maxLength must be a positive integer, got 0/,
  );
});

test('a run resumed by another tracing (another process) links to the paused run through the stored carrier', async () => {
  const first = memoryTracing();
  const second = memoryTracing();
  const app = approvalGraph();
  let stored: Readonly<Record<string, string>> | undefined;
  await app.run(
    { order: 'D-4', log: [] },
    { threadId: 'd4', callbacks: first.tracing.callbacks({ onPause: (carrier) => (stored = carrier) }) },
  );
  const paused = only(first.exporter.getFinishedSpans(), 'run approval');
  expect(stored?.traceparent).toBe(`00-${paused.spanContext().traceId}-${paused.spanContext().spanId}-01`);
  await app.invoke(new Command({ resume: true }), {
    threadId: 'd4',
    callbacks: second.tracing.callbacks({ continues: stored }),
  });
  const resumed = only(second.exporter.getFinishedSpans(), 'run approval');
  expect(resumed.links.map((l) => [l.context.traceId, l.context.spanId])).toEqual([
    [paused.spanContext().traceId, paused.spanContext().spanId],
  ]);
  expect(resumed.events[0]?.attributes).toEqual({ 'weft.resume.trace_id': paused.spanContext().traceId });
});
