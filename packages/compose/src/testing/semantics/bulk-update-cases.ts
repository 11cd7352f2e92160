import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../../graph/state-graph.js';
import { appendReducer } from '../../state/reducers.js';
import { END, START } from '../../vocabulary/constants.js';
import { newThread, type StoreOf } from './threads.js';

const State = z.object({ log: z.array(z.string()).default([]), topic: z.string().default('') });

/** `plan → (research, review) → write`, built with `addSequence` for the chain ends. */
function bulkGraph(store: StoreOf, runs: string[]) {
  const node = (name: string) => () => {
    runs.push(name);
    return { log: name };
  };
  return new StateGraph(State, { reducers: { log: appendReducer } })
    .addSequence([
      ['plan', node('plan')],
      ['research', node('research')],
    ])
    .addNode('review', node('review'))
    .addNode('write', node('write'))
    .addEdge(START, 'plan')
    .addEdge('plan', 'review')
    .addEdge(['research', 'review'], 'write')
    .addEdge('write', END)
    .compile({ checkpointer: store() });
}

/** Issue 15 bullet 9: bulkUpdateState writes one checkpoint per superstep; the thread continues from the last. */
export function describeBulkUpdateCases(store: StoreOf): void {
  describe('bulkUpdateState', () => {
    it('applies supersteps in order, each as one checkpoint; the run continues from the last', async () => {
      const runs: string[] = [];
      const app = bulkGraph(store, runs);
      const threadId = newThread('bulk');
      await app.invoke({ topic: 'x' }, { threadId, interruptBefore: ['plan'] });
      const before = (await app.getStateHistory(threadId)).length;
      const id = await app.bulkUpdateState(threadId, [
        { updates: [{ values: { log: 'planned', topic: 'cats' }, asNode: 'plan' }] },
        {
          updates: [
            { values: { log: 'researched' }, asNode: 'research' },
            { values: { log: 'reviewed' }, asNode: 'review' },
          ],
        },
      ]);
      const history = await app.getStateHistory(threadId);
      expect(history.length).toBe(before + 2);
      const head = await app.getState(threadId);
      expect(head?.checkpointId).toBe(id);
      expect(head?.values).toEqual({ log: ['planned', 'researched', 'reviewed'], topic: 'cats' });
      expect(head?.next).toEqual(['write']);
      expect([...(history[1]?.next ?? [])].sort()).toEqual(['research', 'review']);
      expect(await app.invoke(null, { threadId })).toEqual({
        log: ['planned', 'researched', 'reviewed', 'write'],
        topic: 'cats',
      });
      expect(runs).toEqual(['write']);
    });

    it('checks every update before writing anything', async () => {
      const app = bulkGraph(store, []);
      const threadId = newThread('bulk-check');
      await app.invoke({}, { threadId, interruptBefore: ['plan'] });
      const before = (await app.getStateHistory(threadId)).length;
      await expect(
        app.bulkUpdateState(threadId, [
          { updates: [{ values: { topic: 'fine' } }] },
          { updates: [{ values: { topic: 3 as unknown as string }, asNode: 'plan' }] },
        ]),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      await expect(
        app.bulkUpdateState(threadId, [
          { updates: [{ values: { topic: 'a' } }, { values: { topic: 'b' }, asNode: 'plan' }] },
        ]),
      ).rejects.toThrow(/each needs an asNode/);
      await expect(app.bulkUpdateState(threadId, [])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      expect((await app.getStateHistory(threadId)).length).toBe(before);
    });
  });
}
