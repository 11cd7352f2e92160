import { END, START, StateGraph } from '@weft/compose';
import type { CheckpointRecord } from '@weft/compose/store';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SqliteCheckpointer } from './sqlite-checkpointer.js';

const checkpoint: CheckpointRecord = {
  threadId: 'batch',
  ns: '',
  id: '0001',
  seq: 1,
  parentId: null,
  baseId: '0001',
  step: -1,
  source: 'input',
  createdAt: '2024-01-01T00:00:00.000Z',
  metadata: {},
  payload: 'p',
};

const write = (taskId: string, payload: string) => ({
  threadId: 'batch',
  ns: '',
  checkpointId: '0001',
  taskId,
  payload,
});

describe('SqliteCheckpointer.putWritesBatch', () => {
  it('stores several task writes in order, replacing a task id written before, as putWrites would', async () => {
    const saver = new SqliteCheckpointer();
    await saver.put(checkpoint);
    await saver.putWrites(write('a', 'old'));
    await saver.putWritesBatch([
      write('b', 'b1'),
      write('a', 'new'),
      { ...write('c', 'c1'), checksum: 'sha256:x' },
    ]);
    const stored = await saver.get('batch');
    expect(stored?.writes.map((w) => [w.taskId, w.payload, w.checksum])).toEqual([
      ['a', 'new', undefined],
      ['b', 'b1', undefined],
      ['c', 'c1', 'sha256:x'],
    ]);
    await saver.close();
  });

  it('stores nothing of a batch that fails (one transaction)', async () => {
    const saver = new SqliteCheckpointer();
    await saver.put(checkpoint);
    const broken = { ...write('y', 'y1'), payload: undefined as unknown as string };
    await expect(saver.putWritesBatch([write('x', 'x1'), broken])).rejects.toThrow();
    expect((await saver.get('batch'))?.writes).toEqual([]);
    await saver.close();
  });

  it('a durable DAG run stores its nodes’ writes in batches and resumes from them', async () => {
    const saver = new SqliteCheckpointer();
    const batches: number[] = [];
    const batch = saver.putWritesBatch.bind(saver);
    saver.putWritesBatch = (records) => {
      batches.push(records.length);
      return batch(records);
    };
    let graph = new StateGraph(z.object({ n: z.number() }), {
      reducers: { n: (a: number, b: number) => a + b },
    });
    const names = Array.from({ length: 8 }, (_, i) => `n${i}`);
    for (const name of names)
      graph = graph
        .addNode(name, () => ({ n: 1 }))
        .addEdge(START, name)
        .addEdge(name, END) as never;
    const app = graph.compile({ mode: 'dag', checkpointer: saver });
    expect(await app.invoke({ n: 0 }, { threadId: 'dag-batch' })).toEqual({ n: 8 });
    expect(batches.some((size) => size > 1)).toBe(true);
    await saver.close();
  });
});
