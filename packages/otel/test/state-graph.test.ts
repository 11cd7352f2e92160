import { MemoryCheckpointer, StateGraph } from '@weft/compose';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { memoryTracing, only, spanTree } from './helpers.js';

const schema = z.object({ count: z.number(), log: z.array(z.string()) });

function counter() {
  return new StateGraph(schema)
    .addNode('a', (s) => ({ count: s.count + 1, log: [...s.log, 'a'] }))
    .addNode('b', (s) => ({ count: s.count + 10, log: [...s.log, 'b'] }))
    .addEdge('__start__', 'a')
    .addEdge('a', 'b')
    .addEdge('b', '__end__');
}

test('a run is a tree of run, step and node spans with weft attributes', async () => {
  const { exporter, tracing } = memoryTracing();
  const app = counter().compile({ name: 'counter', checkpointer: new MemoryCheckpointer() });
  await app.invoke({ count: 0, log: [] }, { threadId: 't1', callbacks: tracing.callbacks() });
  const spans = exporter.getFinishedSpans();
  expect(spanTree(spans)).toEqual(['run counter', '  step 0', '    node a', '  step 1', '    node b']);
  const run = only(spans, 'run counter');
  expect(run.attributes).toMatchObject({
    'weft.graph': 'counter',
    'weft.thread.id': 't1',
    'weft.run.status': 'done',
    'weft.run.steps': 2,
  });
  const checkpoints = spans.map((s) => s.attributes['weft.checkpoint.id']).filter(Boolean);
  expect(checkpoints).toHaveLength(3);
  expect(only(spans, 'node b').attributes).toMatchObject({
    'weft.node': 'b',
    'weft.node.path': ['b'],
    'weft.step': 1,
    'weft.node.attempt': 1,
  });
  expect(run.attributes['weft.run.input']).toBeUndefined();
});

test('a failing node with retries: one span per attempt, each failure recorded, the run in error', async () => {
  const { exporter, tracing } = memoryTracing();
  let calls = 0;
  const app = new StateGraph(schema)
    .addNode('start', (s) => ({ log: [...s.log, 'start'] }))
    .addNode(
      'flaky',
      () => {
        calls++;
        throw new Error(`boom ${calls}`);
      },
      { retry: { maxAttempts: 3, initialDelayMs: 1, jitter: false } },
    )
    .addEdge('__start__', 'start')
    .addEdge('start', 'flaky')
    .addEdge('flaky', '__end__')
    .compile({ name: 'failing' });
  await expect(app.invoke({ count: 0, log: [] }, { callbacks: tracing.callbacks() })).rejects.toThrow(
    /boom 3/,
  );
  const spans = exporter.getFinishedSpans();
  const attempt = (s: (typeof spans)[number]) =>
    s.name.startsWith('node') ? `#${s.attributes['weft.node.attempt']}` : '';
  expect(spanTree(spans, attempt)).toEqual([
    'run failing [error]',
    '  step 0',
    '    node start #1',
    '  step 1 [error]',
    '    node flaky [error] #1',
    '    node flaky [error] #2',
    '    node flaky [error] #3',
  ]);
  const [first, , last] = spans.filter((s) => s.name === 'node flaky');
  expect(first?.events.map((e) => e.name)).toEqual(['exception', 'weft.retry']);
  expect(first?.attributes['weft.retry.delay_ms']).toBe(1);
  expect(first?.status.message).toBe('boom 1');
  expect(last?.events.map((e) => e.name)).toEqual(['exception']);
  expect(last?.attributes['error.type']).toBe('NODE_FAILED');
  const run = only(spans, 'run failing');
  expect(run.attributes['weft.run.status']).toBe('error');
  expect(run.events.map((e) => e.name)).toEqual(['exception']);
});

test('a subgraph node holds the spans of its own steps and nodes', async () => {
  const { exporter, tracing } = memoryTracing();
  const inner = new StateGraph(schema)
    .addNode('x', (s) => ({ log: [...s.log, 'x'] }))
    .addNode('y', (s) => ({ log: [...s.log, 'y'] }))
    .addEdge('__start__', 'x')
    .addEdge('x', 'y')
    .addEdge('y', '__end__')
    .compile({ name: 'inner' });
  const outer = new StateGraph(schema)
    .addNode('research', inner)
    .addNode('done', (s) => ({ count: s.log.length }))
    .addEdge('__start__', 'research')
    .addEdge('research', 'done')
    .addEdge('done', '__end__')
    .compile({ name: 'outer' });
  await outer.invoke({ count: 0, log: [] }, { callbacks: tracing.callbacks() });
  const spans = exporter.getFinishedSpans();
  expect(spanTree(spans)).toEqual([
    'run outer',
    '  step 0',
    '    node research',
    '      step 0',
    '        node x',
    '      step 1',
    '        node y',
    '  step 1',
    '    node done',
  ]);
  expect(only(spans, 'node y').attributes['weft.node.path']).toEqual(['research', 'y']);
});
