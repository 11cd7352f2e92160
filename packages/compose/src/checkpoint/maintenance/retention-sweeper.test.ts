import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../../graph/state-graph.js';
import { MemoryStore } from '../../store/memory-store.js';
import { END, START } from '../../vocabulary/constants.js';
import { MemoryCheckpointer } from '../memory-checkpointer.js';
import { pruneCheckpoints } from './prune-checkpoints.js';
import { checkRetentionPolicy } from './retention-policy.js';
import { type RetentionReport, startRetention } from './retention-sweeper.js';

describe('startRetention', () => {
  it('sweeps checkpoints and the Store on demand, per graph, and stops', async () => {
    const checkpointer = new MemoryCheckpointer();
    let clock = Date.now();
    const store = new MemoryStore({ now: () => clock });
    await store.put(['cache'], 'page', { html: '…' }, { ttlMs: 1000 });
    const app = new StateGraph(z.object({ n: z.number() }))
      .addNode('inc', (state) => ({ n: state.n + 1 }))
      .addEdge(START, 'inc')
      .addConditionalEdges('inc', (state) => (state.n < 40 ? 'inc' : END))
      .compile({ checkpointer, name: 'loop', maxSteps: 100 });
    await app.invoke({ n: 0 }, { threadId: 'kept-whole' });
    await app.invoke({ n: 0 }, { threadId: 'pruned' });
    const reports: RetentionReport[] = [];
    const retention = startRetention(checkpointer, {
      policy: (thread) => (thread.threadId === 'pruned' ? { keepLast: 1 } : undefined),
      everyMs: 3_600_000,
      store,
      onSweep: (report) => reports.push(report),
    });
    const before = (await checkpointer.list('kept-whole')).length;
    clock += 2000;
    const report = await retention.sweep();
    expect(report).toMatchObject({ threads: 2, expiredDocuments: 1, skipped: [] });
    expect(report.deletedCheckpoints).toBeGreaterThan(0);
    expect(reports).toEqual([report]);
    expect((await checkpointer.list('kept-whole')).length).toBe(before);
    expect((await app.getState('pruned'))?.values).toEqual({ n: 40 });
    await retention.stop();
    await retention.stop();
  });

  it('refuses bad policies and intervals with errors naming the field', async () => {
    const checkpointer = new MemoryCheckpointer();
    expect(() => checkRetentionPolicy({ keepLast: 0 })).toThrow(/keepLast must be a positive integer/);
    expect(() => checkRetentionPolicy({ maxAgeMs: -1 })).toThrow(/maxAgeMs must be a positive number/);
    await expect(
      pruneCheckpoints(checkpointer, { policy: { threadTtlMs: Number.NaN } }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(() => startRetention(checkpointer, { policy: {}, everyMs: 0 })).toThrow(
      /everyMs must be a positive number/,
    );
    const plain = {
      ...checkpointer,
      put: checkpointer.put.bind(checkpointer),
    } as unknown as MemoryCheckpointer;
    expect(() => startRetention(plain, { policy: {}, everyMs: 10 })).toThrow(/cannot be maintained/);
  });
});
