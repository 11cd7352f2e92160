import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../../graph/state-graph.js';
import type { NodeContext } from '../../pregel/node-context.js';
import { appendReducer } from '../../state/reducers.js';
import { Command } from '../../vocabulary/command.js';
import { END, START } from '../../vocabulary/constants.js';
import { Send } from '../../vocabulary/send.js';
import { newThread, type StoreOf } from './threads.js';

const Abc = z.object({ a: z.number().default(1), b: z.number().default(2), c: z.number().default(3) });

function abcGraph(store: StoreOf) {
  return new StateGraph(Abc)
    .addNode('set', () => ({ a: 101, b: 102, c: 103 }))
    .addNode('check', () => ({}))
    .addEdge(START, 'set')
    .addEdge('set', 'check')
    .addEdge('check', END)
    .compile({ checkpointer: store(), interruptBefore: ['check'] });
}

/** `ask` waits at `interrupt()`; `log` appends. */
function askGraph(store: StoreOf) {
  const State = z.object({ log: z.array(z.string()).default([]), note: z.string().default('') });
  return new StateGraph(State, { reducers: { log: appendReducer } })
    .addNode('draft', () => ({ log: 'draft' }))
    .addNode('ask', (_state, ctx: NodeContext) => ({ log: `answer:${ctx.interrupt<string>('ok?')}` }))
    .addNode('after', () => ({ log: 'after' }))
    .addEdge(START, 'draft')
    .addEdge('draft', 'ask')
    .addEdge('ask', 'after')
    .addEdge('after', END)
    .compile({ checkpointer: store() });
}

/** Bullets 2 and 3: updateState applies on top of the checkpoint; `asNode: END` finishes the thread. */
export function describeUpdateStateCases(store: StoreOf): void {
  describe('updateState applies on top of the checkpoint', () => {
    it('keeps the keys it was not given (also keys with a schema default)', async () => {
      const app = abcGraph(store);
      const threadId = newThread('on-top');
      await app.invoke({}, { threadId });
      expect((await app.getState(threadId))?.values).toEqual({ a: 101, b: 102, c: 103 });
      await app.updateState(threadId, { c: 0 });
      expect((await app.getState(threadId))?.values).toEqual({ a: 101, b: 102, c: 0 });
      expect(await app.invoke(null, { threadId })).toEqual({ a: 101, b: 102, c: 0 });
    });

    it('a fork from an older checkpoint keeps that checkpoint’s other keys', async () => {
      const app = abcGraph(store);
      const threadId = newThread('on-top-fork');
      await app.invoke({}, { threadId });
      const paused = await app.getState(threadId);
      await app.updateState(threadId, { a: 7 });
      await app.updateState(threadId, { b: 8 }, { checkpointId: paused?.checkpointId as string });
      expect((await app.getState(threadId))?.values).toEqual({ a: 101, b: 8, c: 103 });
    });

    it('a new turn on a thread applies its input on top as well', async () => {
      const app = abcGraph(store);
      const threadId = newThread('on-top-turn');
      await app.invoke({}, { threadId });
      await app.invoke(null, { threadId });
      const turn = await app.run({ b: 5 }, { threadId, interruptBefore: [] });
      expect(turn.output).toEqual({ a: 101, b: 102, c: 103 });
      const history = await app.getStateHistory(threadId, { limit: 3 });
      expect(history.at(-1)?.values).toEqual({ a: 101, b: 5, c: 103 });
    });
  });

  describe('updateState with asNode END', () => {
    it('finishes a thread waiting at interrupt(): no next tasks, the interrupt dropped', async () => {
      const app = askGraph(store);
      const threadId = newThread('as-end');
      const paused = await app.run({}, { threadId });
      expect(paused.interrupts).toHaveLength(1);
      await app.updateState(threadId, { note: 'closed by hand' }, { asNode: END });
      const state = await app.getState(threadId);
      expect(state?.next).toEqual([]);
      expect(state?.tasks).toEqual([]);
      expect(state?.interrupts).toEqual([]);
      expect(state?.values).toEqual({ log: ['draft'], note: 'closed by hand' });
      const resumed = app.invoke(new Command({ resume: 'late' }), { threadId });
      await expect(resumed).rejects.toMatchObject({ code: 'INVALID_RESUME' });
      expect(await app.invoke(null, { threadId })).toEqual({ log: ['draft'], note: 'closed by hand' });
    });

    it('with no values, finishes a thread at a breakpoint, keeping the writes of tasks that finished', async () => {
      const State = z.object({ log: z.array(z.string()).default([]) });
      const app = new StateGraph(State, { reducers: { log: appendReducer } })
        .addNode('fan', () => ({ log: 'fan' }))
        .addNode('work', (input: { n: number }) => ({ log: `work${input.n}` }))
        .addNode('ask', (_s, ctx: NodeContext) => ({ log: ctx.interrupt<string>('?') }))
        .addNode('after', () => ({ log: 'after' }))
        .addEdge(START, 'fan')
        .addConditionalEdges('fan', () => [new Send('work', { n: 1 }), 'ask'])
        .addEdge('ask', 'after')
        .addEdge('work', 'after')
        .addEdge('after', END)
        .compile({ checkpointer: store() });
      const threadId = newThread('as-end-empty');
      await app.invoke({}, { threadId });
      await app.updateState(threadId, null, { asNode: END });
      const state = await app.getState(threadId);
      expect(state?.next).toEqual([]);
      expect(state?.interrupts).toEqual([]);
      expect(state?.values).toEqual({ log: ['fan', 'work1'] });
    });
  });
}
