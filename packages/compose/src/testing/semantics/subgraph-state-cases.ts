import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StateGraph } from '../../graph/state-graph.js';
import type { NodeContext } from '../../pregel/node-context.js';
import { appendReducer } from '../../state/reducers.js';
import { Command } from '../../vocabulary/command.js';
import { END, START } from '../../vocabulary/constants.js';
import { newThread, type StoreOf } from './threads.js';

const Outer = z.object({ log: z.array(z.string()).default([]), topic: z.string().default('') });
const Inner = Outer.extend({ draft: z.string().default('') });

/** `agent` drafts on the topic, then asks before it publishes the draft to the parent's `log`. */
function innerAgent(keepsState: boolean) {
  return new StateGraph(Inner, { reducers: { log: appendReducer } })
    .addNode('write', (state) => ({ draft: `draft on ${state.topic}` }))
    .addNode('publish', (state, ctx: NodeContext) => {
      const answer = ctx.interrupt<string>('publish?');
      return { log: `${answer}: ${state.draft}` };
    })
    .addEdge(START, 'write')
    .addEdge('write', 'publish')
    .addEdge('publish', END)
    .compile({ name: 'agent', ...(keepsState ? { checkpointer: true as const } : {}) });
}

/** A parent that plans, then runs `agent` (per call, or keeping its state across turns). */
function writerGraph(store: StoreOf, keepsState: boolean) {
  const agent = innerAgent(keepsState);
  return new StateGraph(Outer, { reducers: { log: appendReducer } })
    .addNode('plan', () => ({ log: 'planned' }))
    .addNode('agent', agent)
    .addEdge(START, 'plan')
    .addEdge('plan', 'agent')
    .addEdge('agent', END)
    .compile({ checkpointer: store() });
}

/** Issue 15 bullet 3: a paused subgraph's state, read, updated and listed through the parent. */
export function describeSubgraphStateCases(store: StoreOf): void {
  describe('subgraph state through the parent', () => {
    for (const keepsState of [false, true]) {
      const kind = keepsState ? 'a subgraph compiled with checkpointer: true' : 'a per-call subgraph';
      it(`${kind}: getState({ subgraphs }) shows it, updateState({ ns }) edits it, getStateHistory({ ns }) lists it`, async () => {
        const threadId = newThread(`sub-state-${keepsState}`);
        const app = writerGraph(store, keepsState);
        expect((await app.run({ topic: 'cats' }, { threadId })).status).toBe('interrupted');

        const plain = await app.getState(threadId);
        expect(plain?.tasks.map((task) => [task.node, task.state, task.ns])).toEqual([
          ['agent', undefined, undefined],
        ]);
        const deep = await app.getState(threadId, { subgraphs: true });
        const task = deep?.tasks[0];
        expect(task?.ns).toBe(keepsState ? 'agent' : `agent:${task?.id}`);
        expect(task?.state?.values).toEqual({ log: ['planned'], topic: 'cats', draft: 'draft on cats' });
        expect(task?.state?.next).toEqual(['publish']);
        expect(task?.state?.interrupts.map((pause) => pause.value)).toEqual(['publish?']);
        expect(task?.state?.tasks[0]?.interrupts.map((pause) => pause.value)).toEqual(['publish?']);
        const ns = task?.ns as string;

        const before = await app.getStateHistory(threadId, { ns });
        await app.updateState(threadId, { draft: 'edited draft' }, { ns });
        const history = await app.getStateHistory(threadId, { ns });
        expect(history).toHaveLength(before.length + 1);
        expect(history[0]?.source).toBe('update');
        expect(history[0]?.values).toMatchObject({ draft: 'edited draft' });
        expect(history[1]?.values).toMatchObject({ draft: 'draft on cats' });
        expect(history.at(-1)?.values).toMatchObject({ topic: 'cats', draft: '' });
        // The parent's own history is unchanged by the subgraph's update.
        expect((await app.getStateHistory(threadId)).every((s) => !('draft' in s.values))).toBe(true);

        const edited = await app.getState(threadId, { subgraphs: true });
        expect(edited?.tasks[0]?.state?.values).toMatchObject({ draft: 'edited draft' });
        expect(edited?.tasks[0]?.state?.interrupts.map((pause) => pause.value)).toEqual(['publish?']);

        const done = await app.invoke(new Command({ resume: 'yes' }), { threadId });
        expect(done.log).toEqual(['planned', 'yes: edited draft']);
        const finished = await app.getState(threadId, { subgraphs: true });
        expect(finished?.next).toEqual([]);
        expect(finished?.tasks).toEqual([]);
      });
    }

    it('recurses into a subgraph paused inside a subgraph, and updates it by its two-part namespace', async () => {
      const threadId = newThread('sub-state-deep');
      const team = new StateGraph(Outer, { reducers: { log: appendReducer } })
        .addNode('lead', innerAgent(false))
        .addEdge(START, 'lead')
        .addEdge('lead', END)
        .compile({ name: 'team' });
      const app = new StateGraph(Outer, { reducers: { log: appendReducer } })
        .addNode('team', team)
        .addEdge(START, 'team')
        .addEdge('team', END)
        .compile({ checkpointer: store() });
      await app.run({ topic: 'owls' }, { threadId });
      const deep = await app.getState(threadId, { subgraphs: true });
      const teamTask = deep?.tasks[0];
      const leadTask = teamTask?.state?.tasks[0];
      expect(leadTask?.ns).toBe(`team:${teamTask?.id}|lead:${leadTask?.id}`);
      expect(leadTask?.state?.values).toMatchObject({ draft: 'draft on owls' });
      expect(leadTask?.state?.interrupts.map((pause) => pause.value)).toEqual(['publish?']);
      await app.updateState(threadId, { draft: 'owl draft' }, { ns: leadTask?.ns as string });
      expect((await app.getStateHistory(threadId, { ns: leadTask?.ns as string }))[0]?.source).toBe('update');
      expect((await app.invoke(new Command({ resume: 'ok' }), { threadId })).log).toEqual(['ok: owl draft']);
    });

    it('names a namespace that is not a subgraph in a typed error', async () => {
      const threadId = newThread('sub-state-bad-ns');
      const app = writerGraph(store, false);
      await app.run({ topic: 'dogs' }, { threadId });
      const error = { name: 'WeftError', code: 'INVALID_ARGUMENT' };
      await expect(app.updateState(threadId, {}, { ns: 'plan:1' })).rejects.toMatchObject(error);
      await expect(app.updateState(threadId, {}, { ns: 'plan:1' })).rejects.toThrow(
        /namespace "plan:1": "plan" is not a subgraph node of graph .*subgraph nodes: agent/,
      );
      await expect(app.getStateHistory(threadId, { ns: 'agent:x|nope' })).rejects.toThrow(
        /namespace "agent:x\|nope": "nope" is not a subgraph node of graph "agent"/,
      );
      await expect(app.updateState(threadId, {}, { ns: 'agent:missing' })).rejects.toThrow(
        /no checkpoint in namespace "agent:missing"/,
      );
    });
  });
}
