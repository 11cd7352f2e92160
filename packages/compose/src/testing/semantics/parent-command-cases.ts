import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../../graph/state-graph.js';
import type { NodeContext } from '../../pregel/node-context.js';
import { appendReducer } from '../../state/reducers.js';
import { Command } from '../../vocabulary/command.js';
import { END, START } from '../../vocabulary/constants.js';
import { newThread, type StoreOf } from './threads.js';

const Team = z.object({ log: z.array(z.string()).default([]), owner: z.string().default('') });
const reducers = { log: appendReducer };

/** Two agents as subgraphs: alice asks (pauses) whether to hand off, then hands off to bob, who may ask too. */
function team(store: StoreOf, calls: { alice: number; bob: number }, bobAsks: boolean) {
  const alice = new StateGraph(Team, { reducers })
    .addNode('think', () => {
      calls.alice += 1;
      return { log: 'alice thinks' };
    })
    .addNode('decide', (_state, ctx: NodeContext) => {
      const answer = ctx.interrupt<string>('hand off to bob?');
      return answer === 'yes'
        ? new Command({ graph: Command.PARENT, goto: 'bob', update: { log: 'alice → bob', owner: 'bob' } })
        : { log: 'alice keeps it' };
    })
    .addEdge(START, 'think')
    .addEdge('think', 'decide')
    .addEdge('decide', END)
    .compile({ name: 'alice' });
  const bob = new StateGraph(Team, { reducers })
    .addNode('answer', (_state, ctx: NodeContext) => {
      calls.bob += 1;
      const note = bobAsks ? ctx.interrupt<string>('anything to add?') : 'done';
      return { log: `bob answers (${note})` };
    })
    .addEdge(START, 'answer')
    .addEdge('answer', END)
    .compile({ name: 'bob' });
  return new StateGraph(Team, { reducers })
    .addNode('bob', bob)
    .addNode('alice', alice, { goto: ['bob'] })
    .addEdge(START, 'alice')
    .addEdge('alice', END)
    .addEdge('bob', END)
    .compile({ checkpointer: store() });
}

/** Issue 15 bullet 2: `Command.PARENT` hand-offs between subgraphs, paused and resumed on a store. */
export function describeParentCommandCases(store: StoreOf): void {
  describe('Command.PARENT', () => {
    it('hands off after a resume inside the subgraph; the parent stores the update as the subgraph node’s write', async () => {
      const threadId = newThread('parent-cmd');
      const calls = { alice: 0, bob: 0 };
      const app = team(store, calls, false);
      const paused = await app.run({ log: ['user asks'] }, { threadId });
      expect(paused.status).toBe('interrupted');
      expect((await app.getState(threadId))?.next).toEqual(['alice']);
      const done = await app.invoke(new Command({ resume: 'yes' }), { threadId });
      expect(done).toEqual({ log: ['user asks', 'alice → bob', 'bob answers (done)'], owner: 'bob' });
      expect(calls).toEqual({ alice: 1, bob: 1 });
      const state = await app.getState(threadId);
      expect(state?.next).toEqual([]);
      expect(state?.values).toEqual(done);
      const history = await app.getStateHistory(threadId);
      // The step where alice handed off wrote her update and planned bob.
      expect(history.some((s) => s.next.includes('bob') && (s.values as typeof done).owner === 'bob')).toBe(
        true,
      );
    });

    it('keeps the hand-off when the next agent pauses: the resume runs only bob', async () => {
      const threadId = newThread('parent-cmd-bob');
      const calls = { alice: 0, bob: 0 };
      const app = team(store, calls, true);
      await app.run({}, { threadId });
      const atBob = await app.run(new Command({ resume: 'yes' }), { threadId });
      expect(atBob.status).toBe('interrupted');
      expect((await app.getState(threadId))?.values).toMatchObject({ log: ['alice → bob'], owner: 'bob' });
      const done = await app.invoke(new Command({ resume: 'no' }), { threadId });
      expect(done.log).toEqual(['alice → bob', 'bob answers (no)']);
      expect(calls.alice).toBe(1);
    });

    it('without a hand-off, the subgraph finishes and the parent goes on along its edges', async () => {
      const threadId = newThread('parent-cmd-keep');
      const calls = { alice: 0, bob: 0 };
      const app = team(store, calls, false);
      await app.run({}, { threadId });
      const done = await app.invoke(new Command({ resume: 'no' }), { threadId });
      expect(done.log).toEqual(['alice thinks', 'alice keeps it']);
      expect(calls.bob).toBe(0);
    });
  });
}
