import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../../graph/state-graph.js';
import type { NodeContext } from '../../pregel/node-context.js';
import { appendReducer } from '../../state/reducers.js';
import { Command } from '../../vocabulary/command.js';
import { END, START } from '../../vocabulary/constants.js';
import { newThread, type StoreOf } from './threads.js';

const State = z.object({ log: z.array(z.string()).default([]), last: z.string().default('') });

/**
 * `listy` returns a list (two updates and a Command routing to `tail`) beside `ask`, which pauses, so
 * the list's write is stored as a task write and restored on resume.
 */
function listGraph(store: StoreOf, runs: string[]) {
  return new StateGraph(State, { reducers: { log: appendReducer } })
    .addNode('tail', () => ({ log: 'tail' }))
    .addNode(
      'listy',
      () => {
        runs.push('listy');
        return [
          { log: 'a', last: 'a' },
          { log: 'b', last: 'b' },
          new Command({ update: { log: 'c' }, goto: 'tail' }),
        ];
      },
      { goto: ['tail'] },
    )
    .addNode('ask', (_state, ctx: NodeContext) => ({ log: `ask:${ctx.interrupt<string>('?')}` }))
    .addEdge(START, 'listy')
    .addEdge(START, 'ask')
    .addEdge('ask', END)
    .addEdge('tail', END)
    .compile({ checkpointer: store() });
}

/** Issue 15 bullet 10: a node's list of updates and Commands is stored and restored like any write. */
export function describeListUpdateCases(store: StoreOf): void {
  describe('a node returning a list of updates and Commands', () => {
    it('applies the items in order, keeps the list’s write across a pause, and follows its goto', async () => {
      const runs: string[] = [];
      const app = listGraph(store, runs);
      const threadId = newThread('list-updates');
      const paused = await app.invoke({}, { threadId });
      expect(paused).toMatchObject({ log: ['a', 'b', 'c'], last: 'b' });
      const done = await app.invoke(new Command({ resume: 'yes' }), { threadId });
      expect(done).toEqual({ log: ['a', 'b', 'c', 'ask:yes', 'tail'], last: 'b' });
      expect(runs).toEqual(['listy']);
      const history = await app.getStateHistory(threadId);
      expect(history.some((s) => s.next.includes('tail'))).toBe(true);
    });
  });
}
