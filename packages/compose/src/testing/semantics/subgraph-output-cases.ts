import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../../graph/state-graph.js';
import type { NodeContext } from '../../pregel/node-context.js';
import { appendReducer } from '../../state/reducers.js';
import { Command } from '../../vocabulary/command.js';
import { END, START } from '../../vocabulary/constants.js';
import { newThread, type StoreOf } from './threads.js';

const Parent = z.object({ log: z.array(z.string()).default([]), text: z.string().default('') });
const Child = Parent.extend({ scratch: z.string().default('') });
const concat = (current: string, update: string): string => current + update;

/**
 * `pre → sub → post`. The subgraph has a key of its own (`scratch`) and a reducer the parent's `text`
 * lacks; with `pause`, its second node waits at `interrupt()` first.
 */
function subgraphGraph(store: StoreOf, pause = false) {
  const sub = new StateGraph(Child, { reducers: { log: appendReducer, text: concat } })
    .addNode('s1', () => ({ log: 's1', text: '+x', scratch: 'notes' }))
    .addNode('s2', (state, ctx: NodeContext) => {
      const answer = pause ? ctx.interrupt<string>('sub?') : 'go';
      return { log: `s2:${answer}:${state.scratch}`, text: '+y', scratch: 'more notes' };
    })
    .addEdge(START, 's1')
    .addEdge('s1', 's2')
    .addEdge('s2', END)
    .compile({ name: 'sub' });
  return new StateGraph(Parent, { reducers: { log: appendReducer } })
    .addNode('pre', () => ({ log: 'pre', text: 'p' }))
    .addNode('sub', sub)
    .addNode('post', (state) => ({ log: `post saw ${Object.keys(state).sort().join(',')}` }))
    .addEdge(START, 'pre')
    .addEdge('pre', 'sub')
    .addEdge('sub', 'post')
    .addEdge('post', END)
    .compile({ checkpointer: store() });
}

const expected = { log: ['pre', 's1', 's2:go:notes', 'post saw log,text'], text: 'p+x+y' };

/** Bullet 11: a subgraph contributes its final output — the parent's keys, reduced — as one update. */
export function describeSubgraphOutputCases(store: StoreOf): void {
  describe('a subgraph’s contribution to its parent', () => {
    it('is one update of the parent’s keys with the subgraph’s reducer results; its own keys stay inside', async () => {
      const app = subgraphGraph(store);
      const threadId = newThread('sub-output');
      const updates: Array<[string, unknown]> = [];
      for await (const part of app.stream({}, { threadId, mode: 'updates' }))
        updates.push([part.node, part.update]);
      expect(updates).toEqual([
        ['pre', { log: 'pre', text: 'p' }],
        ['sub', { log: ['s1', 's2:go:notes'], text: 'p+x+y' }],
        ['post', { log: 'post saw log,text' }],
      ]);
      const state = await app.getState(threadId);
      expect(state?.values).toEqual(expected);
      for (const snapshot of await app.getStateHistory(threadId))
        expect(Object.keys(snapshot.values).sort()).toEqual(['log', 'text']);
      const turn = await app.run({ log: 'again' }, { threadId, interruptBefore: ['pre'] });
      expect(turn.output).toEqual({ ...expected, log: [...expected.log, 'again'] });
    });

    it('is the same when the subgraph paused and was resumed', async () => {
      const app = subgraphGraph(store, true);
      const threadId = newThread('sub-output-resumed');
      await app.invoke({}, { threadId });
      expect(Object.keys((await app.getState(threadId))?.values ?? {}).sort()).toEqual(['log', 'text']);
      expect(await app.invoke(new Command({ resume: 'go' }), { threadId })).toEqual(expected);
      expect((await app.getState(threadId))?.values).toEqual(expected);
      for (const snapshot of await app.getStateHistory(threadId))
        expect(Object.keys(snapshot.values).sort()).toEqual(['log', 'text']);
    });
  });
}
