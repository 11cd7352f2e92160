import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../../graph/state-graph.js';
import { appendReducer } from '../../state/reducers.js';
import { END, START } from '../../vocabulary/constants.js';
import { newThread, type StoreOf } from './threads.js';

const Log = z.object({ log: z.array(z.string()).default([]) });

/** A failure with its own code, as a node's dependency might throw. */
class FlakyError extends Error {
  override readonly name = 'FlakyError';
  readonly code = 'E_FLAKY';
}

/** `fan → [ok, flaky] → join`: `flaky` fails (asynchronously, after `ok` finished) while `failing` is set. */
function flakyGraph(store: StoreOf, runs: string[], failing: { on: boolean }) {
  return new StateGraph(Log, { reducers: { log: appendReducer } })
    .addNode('fan', () => ({ log: 'fan' }))
    .addNode('ok', () => {
      runs.push('ok');
      return { log: 'ok' };
    })
    .addNode('flaky', async () => {
      runs.push('flaky');
      await Promise.resolve();
      if (failing.on) throw new FlakyError('upstream said no');
      return { log: 'flaky' };
    })
    .addNode('join', () => ({ log: 'join' }))
    .addEdge(START, 'fan')
    .addEdge('fan', 'ok')
    .addEdge('fan', 'flaky')
    .addEdge(['ok', 'flaky'], 'join')
    .addEdge('join', END)
    .compile({ checkpointer: store() });
}

/** Issue 15 bullet 8: a failed task is on record with its error; the step's successful writes are kept. */
export function describeFailedTaskCases(store: StoreOf): void {
  describe('a failed task', () => {
    it('shows in getState with its error, the step keeps its finished writes, and a resume runs only what failed', async () => {
      const runs: string[] = [];
      const failing = { on: true };
      const app = flakyGraph(store, runs, failing);
      const threadId = newThread('failed-task');
      await expect(app.invoke({}, { threadId })).rejects.toMatchObject({
        code: 'NODE_FAILED',
        node: 'flaky',
      });
      const state = await app.getState(threadId);
      expect(state?.next).toEqual(['flaky']);
      expect(state?.tasks.map((t) => [t.node, t.done, t.error])).toEqual([
        ['ok', true, undefined],
        ['flaky', false, { name: 'FlakyError', message: 'upstream said no', code: 'E_FLAKY' }],
      ]);
      expect(state?.values).toEqual({ log: ['fan', 'ok'] });
      failing.on = false;
      runs.length = 0;
      expect(await app.invoke(null, { threadId })).toEqual({ log: ['fan', 'ok', 'flaky', 'join'] });
      expect(runs).toEqual(['flaky']);
      const done = await app.getState(threadId);
      expect(done?.next).toEqual([]);
      const history = await app.getStateHistory(threadId);
      const failedStep = history.find((h) => h.next.includes('flaky'));
      expect(failedStep?.tasks.find((t) => t.node === 'flaky')?.done).toBe(true);
    });

    it('records the failure code of a node error without a code of its own', async () => {
      const app = new StateGraph(Log, { reducers: { log: appendReducer } })
        .addNode('boom', () => {
          throw new TypeError('bad input');
        })
        .addEdge(START, 'boom')
        .addEdge('boom', END)
        .compile({ checkpointer: store() });
      const threadId = newThread('failed-task-code');
      await expect(app.invoke({}, { threadId })).rejects.toMatchObject({ code: 'NODE_FAILED' });
      const state = await app.getState(threadId);
      expect(state?.tasks).toEqual([
        expect.objectContaining({
          node: 'boom',
          done: false,
          error: { name: 'TypeError', message: 'bad input', code: 'NODE_FAILED' },
        }),
      ]);
    });
  });
}
