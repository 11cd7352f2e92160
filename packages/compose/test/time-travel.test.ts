import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointer } from '../src/checkpoint/memory-checkpointer.js';
import { appendReducer, END, START, StateGraph, WeftError } from '../src/index.js';

const Log = z.object({ log: z.array(z.string()).default([]) });
const options = { reducers: { log: appendReducer } };

/**
 * `a → [b, c] → sub(i1) → d`: a parallel step (its task outputs are stored as task writes) and a subgraph
 * (its checkpoints nest under the task id), the two places an older branch could leak into a replay.
 * Nodes log how much state they saw, so a node that ran on other state is visible in the result.
 */
function buildApp(saver: MemoryCheckpointer) {
  const runs: string[] = [];
  const seen = (node: string) => (state: { log: string[] }) => {
    runs.push(node);
    return { log: `${node}(${state.log.length})` };
  };
  const inner = new StateGraph(Log, options)
    .addNode('i1', seen('i1'))
    .addEdge(START, 'i1')
    .addEdge('i1', END)
    .compile({ name: 'inner' });
  const app = new StateGraph(Log, options)
    .addNode('a', seen('a'))
    .addNode('b', async (state) => seen('b')(state))
    .addNode('c', async (state) => seen('c')(state))
    .addNode('sub', inner)
    .addNode('d', seen('d'))
    .addEdge(START, 'a')
    .addEdge('a', 'b')
    .addEdge('a', 'c')
    .addEdge(['b', 'c'], 'sub')
    .addEdge('sub', 'd')
    .addEdge('d', END)
    .compile({ checkpointer: saver });
  return { app, runs };
}

const finalLog = ['x', 'a(1)', 'b(2)', 'c(2)', 'i1(4)', 'd(5)'];

async function ranThread() {
  const saver = new MemoryCheckpointer();
  const built = buildApp(saver);
  await built.app.invoke({ log: ['x'] }, { threadId: 't' });
  built.runs.length = 0;
  const history = await built.app.getStateHistory('t');
  return { saver, ...built, history };
}

describe('getState and getStateHistory', () => {
  it('getState describes the latest checkpoint, and a given one', async () => {
    const { app, history } = await ranThread();
    const state = await app.getState('t');
    expect(state).toMatchObject({
      values: { log: finalLog },
      next: [],
      tasks: [],
      interrupts: [],
      step: 3,
      source: 'loop',
      parentId: history[1]?.checkpointId,
      metadata: { step: 3, source: 'loop', writes: ['d'], parents: {} },
    });
    expect(state?.checkpointId).toBe(history[0]?.checkpointId);
    expect(Number.isNaN(Date.parse(state?.createdAt ?? ''))).toBe(false);
    const afterA = await app.getState('t', { checkpointId: history[3]?.checkpointId as string });
    expect(afterA?.values).toEqual({ log: ['x', 'a(1)'] });
    expect(afterA?.next).toEqual(['b', 'c']);
    expect(afterA?.tasks.map((t) => [t.node, t.done])).toEqual([
      ['b', true],
      ['c', true],
    ]);
  });

  it('getState is undefined for an unknown thread and NOT_FOUND for an unknown checkpoint', async () => {
    const { app } = await ranThread();
    expect(await app.getState('nobody')).toBeUndefined();
    await expect(app.getState('t', { checkpointId: 'missing' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('getStateHistory lists every checkpoint newest first, each linked to the one before', async () => {
    const { history } = await ranThread();
    expect(history.map((h) => [h.step, h.source, h.next, h.values.log.length])).toEqual([
      [3, 'loop', [], 6],
      [2, 'loop', ['d'], 5],
      [1, 'loop', ['sub'], 4],
      [0, 'loop', ['b', 'c'], 2],
      [-1, 'input', ['a'], 1],
    ]);
    for (let i = 0; i < history.length - 1; i++)
      expect(history[i]?.parentId).toBe(history[i + 1]?.checkpointId);
    expect(history.at(-1)?.parentId).toBeNull();
  });
});

describe('replay and fork', () => {
  it('replaying from an older checkpoint re-runs only the nodes after it and keeps the old branch', async () => {
    const { app, runs, history } = await ranThread();
    const afterA = history[3]!;
    const replayed = await app.invoke(null, { threadId: 't', checkpointId: afterA.checkpointId });
    expect(replayed).toEqual({ log: finalLog });
    expect(runs).toEqual(['b', 'c', 'i1', 'd']);
    const all = await app.getStateHistory('t');
    // The replay writes its fork checkpoint at once (a copy of afterA), then one per step.
    expect(all).toHaveLength(history.length + 4);
    for (const old of history) expect(all.map((h) => h.checkpointId)).toContain(old.checkpointId);
    const branch = all.filter((h) => !history.some((old) => old.checkpointId === h.checkpointId));
    expect(branch.map((h) => [h.step, h.source])).toEqual([
      [3, 'loop'],
      [2, 'loop'],
      [1, 'loop'],
      [0, 'fork'],
    ]);
    expect(branch.at(-1)?.parentId).toBe(afterA.checkpointId);
  });

  it('updateState without asNode applies through the reducers and keeps the next nodes', async () => {
    const { app, runs, history } = await ranThread();
    const beforeSub = history[2]!;
    const id = await app.updateState('t', { log: 'edit' }, { checkpointId: beforeSub.checkpointId });
    const updated = await app.getState('t');
    expect(updated).toMatchObject({
      checkpointId: id,
      parentId: beforeSub.checkpointId,
      source: 'update',
      next: ['sub'],
      values: { log: ['x', 'a(1)', 'b(2)', 'c(2)', 'edit'] },
    });
    const forked = await app.invoke(null, { threadId: 't' });
    // The subgraph runs again, on the edited state: nothing the old branch stored for it is reused.
    expect(forked).toEqual({ log: ['x', 'a(1)', 'b(2)', 'c(2)', 'edit', 'i1(5)', 'd(6)'] });
    expect(runs).toEqual(['i1', 'd']);
    const original = await app.getState('t', { checkpointId: history[0]?.checkpointId as string });
    expect(original?.values).toEqual({ log: finalLog });
  });

  it('updateState with asNode routes the next nodes from that node', async () => {
    const { app, runs, history } = await ranThread();
    const afterA = history[3]!;
    await app.updateState('t', { log: 'manual-sub' }, { checkpointId: afterA.checkpointId, asNode: 'sub' });
    expect((await app.getState('t'))?.next).toEqual(['d']);
    expect(await app.invoke(null, { threadId: 't' })).toEqual({ log: ['x', 'a(1)', 'manual-sub', 'd(3)'] });
    expect(runs).toEqual(['d']);
  });

  it('updateState rejects a node that does not exist, an unknown checkpoint and an empty namespace', async () => {
    const { app } = await ranThread();
    const wrong = app.updateState('t', { log: 'z' }, { asNode: 'nope' as 'a' });
    await expect(wrong).rejects.toSatisfy((e) => WeftError.isInstance(e) && e.code === 'INVALID_ARGUMENT');
    await expect(app.updateState('t', { log: 'z' }, { checkpointId: 'nope' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(app.updateState('none', { log: 'z' }, { ns: 'sub:nope' })).rejects.toMatchObject({
      code: expect.stringMatching(/NOT_FOUND|INVALID_ARGUMENT/),
    });
    // A thread with no checkpoint is seeded (see test/reference/langgraph-seed-thread.test.ts).
    await expect(app.updateState('none', { log: 'z' })).resolves.toEqual(expect.any(String));
  });

  it('getStateHistory lists both branches of a fork and filters by metadata, limit and before', async () => {
    const { app, history } = await ranThread();
    const beforeSub = history[2]!;
    const updateId = await app.updateState('t', { log: 'edit' }, { checkpointId: beforeSub.checkpointId });
    await app.invoke(null, { threadId: 't' });
    const all = await app.getStateHistory('t');
    expect(all).toHaveLength(history.length + 3);
    const finals = all.filter((h) => h.next.length === 0).map((h) => h.values.log.at(-1));
    expect(finals.sort()).toEqual(['d(5)', 'd(6)']);

    const updates = await app.getStateHistory('t', { filter: { source: 'update' } });
    expect(updates.map((h) => h.checkpointId)).toEqual([updateId]);
    const stepTwo = await app.getStateHistory('t', { filter: { step: 2 } });
    expect(stepTwo.map((h) => h.source).sort()).toEqual(['loop', 'update']);
    const newest = await app.getStateHistory('t', { limit: 2 });
    expect(newest.map((h) => h.checkpointId)).toEqual(all.slice(0, 2).map((h) => h.checkpointId));
    const older = await app.getStateHistory('t', { before: history[1]?.checkpointId as string });
    expect(older.map((h) => h.checkpointId)).toEqual(history.slice(2).map((h) => h.checkpointId));
    const page = await app.getStateHistory('t', { before: updateId, limit: 1, filter: { source: 'loop' } });
    expect(page.map((h) => h.checkpointId)).toEqual([history[0]?.checkpointId]);
  });
});
