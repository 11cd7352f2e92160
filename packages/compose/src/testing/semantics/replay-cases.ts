import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../../graph/state-graph.js';
import type { NodeContext } from '../../pregel/node-context.js';
import type { PendingInterrupt } from '../../pregel/task.js';
import { appendReducer } from '../../state/reducers.js';
import { Command } from '../../vocabulary/command.js';
import { END, START } from '../../vocabulary/constants.js';
import { newThread, type StoreOf } from './threads.js';

const Log = z.object({ log: z.array(z.string()).default([]) });
const reducers = { reducers: { log: appendReducer } };

/** `a → ask → b`: `ask` waits at `interrupt()`; `runs` counts executions. */
function askGraph(store: StoreOf, runs: string[]) {
  return new StateGraph(Log, reducers)
    .addNode('a', () => {
      runs.push('a');
      return { log: 'a' };
    })
    .addNode('ask', (_state, ctx: NodeContext) => {
      runs.push('ask');
      return { log: `ask:${ctx.interrupt<string>('ask?')}` };
    })
    .addNode('b', () => {
      runs.push('b');
      return { log: 'b' };
    })
    .addEdge(START, 'a')
    .addEdge('a', 'ask')
    .addEdge('ask', 'b')
    .addEdge('b', END)
    .compile({ checkpointer: store() });
}

/** `pre → sub(s1 → ask) → post`: the subgraph pauses in `ask`; `runs` counts executions. */
function subgraphGraph(store: StoreOf, runs: string[]) {
  const sub = new StateGraph(Log, reducers)
    .addNode('s1', () => {
      runs.push('s1');
      return { log: 's1' };
    })
    .addNode('ask', (_state, ctx: NodeContext) => {
      runs.push('ask');
      return { log: `ask:${ctx.interrupt<string>('sub?')}` };
    })
    .addEdge(START, 's1')
    .addEdge('s1', 'ask')
    .addEdge('ask', END)
    .compile({ name: 'sub' });
  return new StateGraph(Log, reducers)
    .addNode('pre', () => {
      runs.push('pre');
      return { log: 'pre' };
    })
    .addNode('sub', sub)
    .addNode('post', () => {
      runs.push('post');
      return { log: 'post' };
    })
    .addEdge(START, 'pre')
    .addEdge('pre', 'sub')
    .addEdge('sub', 'post')
    .addEdge('post', END)
    .compile({ checkpointer: store() });
}

const asks = (output: unknown): unknown[] =>
  ((output as { __interrupt__?: PendingInterrupt[] }).__interrupt__ ?? []).map((i) => i.value);

/** Bullets 9 and 10: a replay forks at once; a replayed subgraph runs again from its start. */
export function describeReplayCases(store: StoreOf): void {
  describe('replay from an older checkpoint', () => {
    it('writes the fork checkpoint at once, so a replay that pauses moves the head and a plain resume continues the fork', async () => {
      const runs: string[] = [];
      const app = askGraph(store, runs);
      const threadId = newThread('replay-fork');
      await app.invoke({}, { threadId });
      await app.invoke(new Command({ resume: 'old' }), { threadId });
      const history = await app.getStateHistory(threadId);
      const beforeAsk = history.find((h) => h.next.includes('ask'));
      expect(beforeAsk).toBeDefined();
      runs.length = 0;
      const replayed = await app.invoke(null, { threadId, checkpointId: beforeAsk?.checkpointId as string });
      expect(asks(replayed)).toEqual(['ask?']);
      expect(runs).toEqual(['ask']);
      const head = await app.getState(threadId);
      expect(head?.source).toBe('fork');
      expect(head?.parentId).toBe(beforeAsk?.checkpointId);
      expect(head?.step).toBe(beforeAsk?.step);
      expect(head?.values).toEqual({ log: ['a'] });
      expect(head?.next).toEqual(['ask']);
      expect(head?.interrupts.map((i) => i.value)).toEqual(['ask?']);
      const after = await app.getStateHistory(threadId);
      expect(after).toHaveLength(history.length + 1);
      runs.length = 0;
      const done = await app.invoke(new Command({ resume: 'new' }), { threadId });
      expect(done).toEqual({ log: ['a', 'ask:new', 'b'] });
      expect(runs).toEqual(['ask', 'b']);
      const final = await app.getStateHistory(threadId);
      expect(final.map((h) => [h.source, h.next, h.values.log])).toEqual([
        ['loop', [], ['a', 'ask:new', 'b']],
        ['loop', ['b'], ['a', 'ask:new']],
        ['fork', ['ask'], ['a']],
        ...history.map((h) => [h.source, h.next, h.values.log]),
      ]);
    });

    it('starts a values stream that resumes or replays with the current state', async () => {
      const runs: string[] = [];
      const app = askGraph(store, runs);
      const threadId = newThread('replay-values');
      await app.invoke({}, { threadId });
      const resumed: unknown[] = [];
      for await (const part of app.stream(new Command({ resume: 'yes' }), { threadId, mode: 'values' }))
        resumed.push(part);
      expect(resumed).toEqual([{ log: ['a'] }, { log: ['a', 'ask:yes'] }, { log: ['a', 'ask:yes', 'b'] }]);
      const continued: unknown[] = [];
      for await (const part of app.stream(null, { threadId, mode: 'values' })) continued.push(part);
      expect(continued).toEqual([{ log: ['a', 'ask:yes', 'b'] }]);
      const first = (await app.getStateHistory(threadId)).find((h) => h.next.includes('a'));
      const replayed: unknown[] = [];
      for await (const part of app.stream(null, {
        threadId,
        checkpointId: first?.checkpointId as string,
        mode: 'values',
      }))
        replayed.push(part);
      expect(replayed).toEqual([
        { log: [] },
        { log: ['a'] },
        { log: ['a'], __interrupt__: expect.any(Array) },
      ]);
    });

    it('runs a subgraph that finished on the old branch again from its start, and it pauses where it pauses', async () => {
      const runs: string[] = [];
      const app = subgraphGraph(store, runs);
      const threadId = newThread('replay-subgraph');
      expect(asks(await app.invoke({}, { threadId }))).toEqual(['sub?']);
      expect(await app.invoke(new Command({ resume: 'old' }), { threadId })).toEqual({
        log: ['pre', 's1', 'ask:old', 'post'],
      });
      const beforeSub = (await app.getStateHistory(threadId)).find((h) => h.next.includes('sub'));
      runs.length = 0;
      const replayed = await app.invoke(null, { threadId, checkpointId: beforeSub?.checkpointId as string });
      expect(asks(replayed)).toEqual(['sub?']);
      expect(runs).toEqual(['s1', 'ask']);
      expect((await app.getState(threadId))?.values).toEqual({ log: ['pre'] });
      runs.length = 0;
      expect(await app.invoke(new Command({ resume: 'new' }), { threadId })).toEqual({
        log: ['pre', 's1', 'ask:new', 'post'],
      });
      expect(runs).toEqual(['ask', 'post']);
    });
  });
}
