import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../graph/state-graph.js';
import { Command } from '../vocabulary/command.js';
import { END, START } from '../vocabulary/constants.js';
import type { CheckpointRecord, TaskWritesRecord } from './checkpointer.js';
import { MemoryCheckpointer } from './memory-checkpointer.js';

/** A memory checkpointer that stores batches and logs every store call in order. */
class BatchingCheckpointer extends MemoryCheckpointer {
  readonly calls: Array<readonly [kind: 'put' | 'write' | 'batch', ids: readonly string[]]> = [];
  override async put(record: CheckpointRecord): Promise<void> {
    this.calls.push(['put', [record.id]]);
    return super.put(record);
  }
  override async putWrites(record: TaskWritesRecord): Promise<void> {
    this.calls.push(['write', [record.checkpointId]]);
    return super.putWrites(record);
  }
  async putWritesBatch(records: readonly TaskWritesRecord[]): Promise<void> {
    this.calls.push(['batch', records.map((r) => r.checkpointId)]);
    for (const record of records) await super.putWrites(record);
  }
}

const Sum = z.object({ n: z.number(), asked: z.string().default('') });

/** START → a0..a5 (in parallel) → ask (pauses once) → END. */
function fanOut(saver: MemoryCheckpointer) {
  let graph = new StateGraph(Sum, { reducers: { n: (a: number, b: number) => a + b } })
    .addNode('ask', (_state, ctx) => ({ asked: ctx.interrupt<string>('ok?') }))
    .addEdge('ask', END);
  const names = Array.from({ length: 6 }, (_, i) => `a${i}`);
  for (const name of names) graph = graph.addNode(name, () => ({ n: 1 })).addEdge(START, name) as never;
  return graph.addEdge(names as never, 'ask').compile({ mode: 'dag', checkpointer: saver });
}

describe('task writes queued together are stored as one batch', () => {
  it('batches a DAG’s writes; each is stored after the checkpoint it belongs to; resume reads them', async () => {
    const saver = new BatchingCheckpointer();
    const app = fanOut(saver);
    const paused = await app.run({ n: 0 }, { threadId: 'batched' });
    expect(paused.status).toBe('interrupted');
    const batches = saver.calls.filter(([kind]) => kind === 'batch');
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.every(([, ids]) => ids.length > 1)).toBe(true);
    const stored = saver.calls.filter(([kind]) => kind !== 'put').flatMap(([, ids]) => ids);
    // Six node outputs and the pause, whatever the grouping.
    expect(stored).toHaveLength(7);
    const put = new Set<string>();
    for (const [kind, ids] of saver.calls) {
      if (kind === 'put') put.add(ids[0] as string);
      else for (const id of ids) expect(put.has(id)).toBe(true);
    }
    expect(await app.invoke(new Command({ resume: 'yes' }), { threadId: 'batched' })).toEqual({
      n: 6,
      asked: 'yes',
    });
  });

  it('a store without putWritesBatch gets the same writes one by one', async () => {
    const saver = new MemoryCheckpointer();
    const app = fanOut(saver);
    await app.run({ n: 0 }, { threadId: 'single' });
    const head = await saver.get('single');
    expect(head?.writes.length).toBeGreaterThan(0);
    expect(await app.invoke(new Command({ resume: 'yes' }), { threadId: 'single' })).toEqual({
      n: 6,
      asked: 'yes',
    });
  });
});
