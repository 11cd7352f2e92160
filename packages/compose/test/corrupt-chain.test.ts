import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { END, MemoryCheckpointer, START, StateGraph } from '../src/index.js';

/** A counter over a large note, so every checkpoint after the first stays a small delta of one base. */
function counter(saver: MemoryCheckpointer) {
  return new StateGraph(z.object({ note: z.string(), n: z.number() }))
    .addNode('inc', (state) => ({ n: state.n + 1 }))
    .addEdge(START, 'inc')
    .addConditionalEdges('inc', (state) => (state.n < 4 ? 'inc' : END))
    .compile({ checkpointer: saver });
}

describe('a corrupted parent chain', () => {
  it('two deltas whose parents point at each other fail with a CHECKPOINT error naming the checkpoint', async () => {
    const saver = new MemoryCheckpointer();
    await counter(saver).invoke({ note: 'x'.repeat(2000), n: 0 }, { threadId: 't' });
    const records = (await saver.list('t')).reverse();
    const [base, ...deltas] = records;
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    expect(deltas.every((record) => record.baseId === base!.id)).toBe(true);
    // Copy the thread with the last two deltas pointing at each other.
    const corrupt = new MemoryCheckpointer();
    const [first, second] = deltas.slice(-2);
    for (const record of records) {
      const parentId =
        record.id === first!.id ? second!.id : record.id === second!.id ? first!.id : record.parentId;
      await corrupt.put({ ...record, parentId });
    }
    const app = counter(corrupt);
    const error = await app.getState('t').catch((caught: unknown) => caught);
    // The one corruption error every layer reports (issue #52), naming the thread and the checkpoint.
    expect(error).toMatchObject({
      name: 'CheckpointCorruptError',
      code: 'CHECKPOINT_CORRUPT',
      kind: 'chain',
    });
    expect(error).toMatchObject({ threadId: 't', checkpointId: second!.id });
    expect((error as Error).message).toContain(`checkpoint "${second!.id}"`);
    expect((error as Error).message).toMatch(/parent chain comes back/);
    await expect(app.invoke(null, { threadId: 't' })).rejects.toMatchObject({ code: 'CHECKPOINT_CORRUPT' });
    await expect(app.getStateHistory('t')).rejects.toMatchObject({ code: 'CHECKPOINT_CORRUPT' });
  });
});
