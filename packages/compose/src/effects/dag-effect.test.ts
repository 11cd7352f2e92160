import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../checkpoint/memory-checkpointer.js';
import { StateGraph } from '../graph/state-graph.js';
import { END, START } from '../vocabulary/constants.js';

describe('ctx.effect in DAG mode', () => {
  it('is recorded once when a node fails after it and the thread is continued', async () => {
    const checkpointer = new MemoryCheckpointer();
    const keys: string[] = [];
    let failures = 1;
    const app = new StateGraph(z.object({ receipt: z.string().optional(), shipped: z.boolean().optional() }))
      .addNode('charge', async (_s, ctx) => {
        const receipt = await ctx.effect('charge', ({ idempotencyKey }) => {
          keys.push(idempotencyKey);
          return `r-${keys.length}`;
        });
        if (failures-- > 0) throw new Error('crashed after the charge');
        return { receipt };
      })
      .addNode('ship', () => ({ shipped: true }))
      .addEdge(START, 'charge')
      .addEdge('charge', 'ship')
      .addEdge('ship', END)
      .compile({ checkpointer, mode: 'dag' });
    await expect(app.invoke({}, { threadId: 'dag' })).rejects.toThrow('crashed after the charge');
    expect(await app.invoke(null, { threadId: 'dag' })).toEqual({ receipt: 'r-1', shipped: true });
    expect(keys).toHaveLength(1);
    // A replay from the run's input checkpoint runs the nodes again, but not the recorded effect.
    const history = await app.getStateHistory('dag');
    const input = history.find((snapshot) => snapshot.next.includes('charge'));
    const replayed = await app.invoke(null, { threadId: 'dag', checkpointId: input?.checkpointId as string });
    expect(replayed).toEqual({ receipt: 'r-1', shipped: true });
    expect(keys).toHaveLength(1);
  });
});
