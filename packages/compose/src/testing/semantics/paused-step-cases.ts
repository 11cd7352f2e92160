import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../../graph/state-graph.js';
import type { NodeContext } from '../../pregel/node-context.js';
import { appendReducer } from '../../state/reducers.js';
import { Command } from '../../vocabulary/command.js';
import { END, START } from '../../vocabulary/constants.js';
import { Send } from '../../vocabulary/send.js';
import { newThread, type StoreOf } from './threads.js';

const State = z.object({ log: z.array(z.string()).default([]), note: z.string().default('') });

/**
 * `fan` sends to `work` (1 asynchronous, 2 synchronous: 2 finishes first) beside `ask`, which waits at
 * `interrupt()`; `runs` counts executions.
 */
function pausedStepGraph(store: StoreOf, runs: string[]) {
  return new StateGraph(State, { reducers: { log: appendReducer } })
    .addNode('fan', () => ({ log: 'fan' }))
    .addNode('ask', (state, ctx: NodeContext) => {
      runs.push('ask');
      return { log: `ask:${ctx.interrupt<string>('?')}:${state.note}` };
    })
    .addNode('work', (input: { n: number }) => {
      runs.push(`work${input.n}`);
      if (input.n === 1) return Promise.resolve().then(() => ({ log: 'work1' }));
      return { log: `work${input.n}` };
    })
    .addNode('after', () => ({ log: 'after' }))
    .addEdge(START, 'fan')
    .addConditionalEdges('fan', () => ['ask', new Send('work', { n: 1 }), new Send('work', { n: 2 })])
    .addEdge('ask', 'after')
    .addEdge('work', 'after')
    .addEdge('after', END)
    .compile({ checkpointer: store() });
}

/** Bullets 4 and 8: what a paused step shows, and what updateState keeps of it. */
export function describePausedStepCases(store: StoreOf): void {
  describe('a paused step', () => {
    it('shows the writes of its finished tasks: output, getState, updates stream in finish order', async () => {
      const runs: string[] = [];
      const app = pausedStepGraph(store, runs);
      const threadId = newThread('paused-shows');
      const updates: Array<[string, unknown]> = [];
      for await (const part of app.stream({}, { threadId, mode: 'updates' }))
        updates.push([part.node, part.update]);
      expect(updates).toEqual([
        ['fan', { log: 'fan' }],
        ['work', { log: 'work2' }],
        ['work', { log: 'work1' }],
        ['__interrupt__', expect.any(Array)],
      ]);
      const state = await app.getState(threadId);
      expect(state?.values.log).toEqual(['fan', 'work1', 'work2']);
      expect(state?.tasks.map((t) => [t.node, t.done])).toEqual([
        ['ask', false],
        ['work', true],
        ['work', true],
      ]);
      const threadId2 = newThread('paused-output');
      const paused = await app.run({}, { threadId: threadId2 });
      expect(paused.output).toEqual({ log: ['fan', 'work1', 'work2'], note: '' });
      expect(await app.invoke(null, { threadId: newThread('paused-unknown') }).catch((e) => e.code)).toBe(
        'NOT_FOUND',
      );
      const done = await app.invoke(new Command({ resume: 'yes' }), { threadId });
      expect(done.log).toEqual(['fan', 'ask:yes:', 'work1', 'work2', 'after']);
      expect(runs.filter((r) => r.startsWith('work'))).toEqual(['work1', 'work2', 'work1', 'work2']);
    });

    it('updateState keeps the finished tasks (same ids, writes kept) and they never run again', async () => {
      const runs: string[] = [];
      const app = pausedStepGraph(store, runs);
      const threadId = newThread('paused-update');
      await app.invoke({}, { threadId });
      const before = await app.getState(threadId);
      await app.updateState(threadId, { note: 'edited' });
      const after = await app.getState(threadId);
      expect(after?.tasks.map((t) => [t.id, t.node, t.done])).toEqual(
        before?.tasks.map((t) => [t.id, t.node, t.done]),
      );
      expect(after?.values).toEqual({ log: ['fan', 'work1', 'work2'], note: 'edited' });
      expect(after?.interrupts.map((i) => i.id)).toEqual(before?.interrupts.map((i) => i.id));
      runs.length = 0;
      const done = await app.invoke(new Command({ resume: 'ok' }), { threadId });
      expect(done.log).toEqual(['fan', 'ask:ok:edited', 'work1', 'work2', 'after']);
      expect(runs).toEqual(['ask']);
    });

    it('updateState as the paused node applies the finished writes and routes from the step', async () => {
      const runs: string[] = [];
      const app = pausedStepGraph(store, runs);
      const threadId = newThread('paused-as-node');
      await app.invoke({}, { threadId });
      await app.updateState(threadId, { log: 'ask:by hand' }, { asNode: 'ask' });
      const state = await app.getState(threadId);
      expect(state?.values.log).toEqual(['fan', 'work1', 'work2', 'ask:by hand']);
      expect(state?.next).toEqual(['after']);
      expect(state?.interrupts).toEqual([]);
      runs.length = 0;
      expect((await app.invoke(null, { threadId })).log).toEqual([
        'fan',
        'work1',
        'work2',
        'ask:by hand',
        'after',
      ]);
      expect(runs).toEqual([]);
    });
  });
}
