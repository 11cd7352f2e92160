import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SnapshotInfo } from '../../src/shared/wire.ts';
import { type Harness, startHarness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('fork and time travel over HTTP', () => {
  it('forks from step 1 with edited state: a new branch runs, the original history stays', async () => {
    const thread = await h.thread('counter-loop');
    await h.events((await h.start(thread, { target: 4, delayMs: 1 })).id);
    const before: SnapshotInfo[] = (await h.request('GET', `/api/threads/${thread}/history`)).body;
    const step1 = before.find((s) => s.step === 1)!;
    expect(step1.values).toMatchObject({ count: 2 });
    const fork = await h.request('POST', `/api/threads/${thread}/fork`, {
      checkpointId: step1.checkpointId,
      values: { count: 10, target: 12 },
    });
    expect(fork.status).toBe(202);
    expect(fork.body.kind).toBe('fork');
    expect((await h.finished(fork.body.id)).end).toMatchObject({ status: 'done' });
    const after: SnapshotInfo[] = (await h.request('GET', `/api/threads/${thread}/history`)).body;
    for (const old of before) expect(after.map((s) => s.checkpointId)).toContain(old.checkpointId);
    const update = after.find((s) => s.source === 'update')!;
    expect(update.parentId).toBe(step1.checkpointId);
    expect(update.values).toMatchObject({ count: 10, target: 12 });
    const latest = (await h.request('GET', `/api/threads/${thread}/state`)).body;
    expect(latest.values.count).toBe(12);
    const children = after.filter((s) => s.parentId === step1.checkpointId);
    expect(children).toHaveLength(2);
  });

  it('re-runs from a checkpoint without edits (a replay that branches)', async () => {
    const thread = await h.thread('counter-loop');
    await h.events((await h.start(thread, { target: 2, delayMs: 1 })).id);
    const history: SnapshotInfo[] = (await h.request('GET', `/api/threads/${thread}/history`)).body;
    const first = history.find((s) => s.step === 0)!;
    const rerun = await h.request('POST', `/api/threads/${thread}/fork`, {
      checkpointId: first.checkpointId,
    });
    expect((await h.finished(rerun.body.id)).end).toMatchObject({ status: 'done' });
    const after: SnapshotInfo[] = (await h.request('GET', `/api/threads/${thread}/history`)).body;
    expect(after.length).toBeGreaterThan(history.length);
    expect(after.filter((s) => s.parentId === first.checkpointId)).toHaveLength(2);
  });

  it('edit and fork apply on top of the checkpoint through the reducers: keys not given keep their values', async () => {
    const thread = await h.thread('counter-loop');
    await h.events((await h.start(thread, { target: 3, delayMs: 1 })).id);
    const before: SnapshotInfo[] = (await h.request('GET', `/api/threads/${thread}/history`)).body;
    const step1 = before.find((s) => s.step === 1)!;
    const at1 = step1.values as { count: number; log: string[] };
    const fork = await h.request('POST', `/api/threads/${thread}/fork`, {
      checkpointId: step1.checkpointId,
      values: { count: 2, log: 'edited' },
    });
    expect(fork.status).toBe(202);
    await h.finished(fork.body.id);
    const after: SnapshotInfo[] = (await h.request('GET', `/api/threads/${thread}/history`)).body;
    const update = after.find((s) => s.source === 'update')!;
    // `target` and `delayMs` keep the checkpoint's values (not the schema defaults 5 and 300); `log`
    // appends through its reducer.
    expect(update.values).toEqual({ count: 2, target: 3, delayMs: 1, log: [...at1.log, 'edited'] });
    const edit = await h.request('POST', `/api/threads/${thread}/state`, { values: { log: 'note' } });
    expect(edit.status).toBe(200);
    const latest = (await h.request('GET', `/api/threads/${thread}/state`)).body;
    expect(latest.values).toMatchObject({ count: 3, target: 3, delayMs: 1 });
    expect(latest.values.log.slice(-2)).toEqual(['reached 3 (target 3)', 'note']);
  });

  it('updates state as a node, validated against the graph schema', async () => {
    const thread = await h.thread('counter-loop');
    await h.events((await h.start(thread, { target: 1, delayMs: 1 })).id);
    const bad = await h.request('POST', `/api/threads/${thread}/state`, { values: { count: 'many' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues).toContainEqual(expect.objectContaining({ path: 'values.count' }));
    const badNode = await h.request('POST', `/api/threads/${thread}/state`, {
      values: { count: 1 },
      asNode: 'nope',
    });
    expect(badNode.status).toBe(400);
    expect(badNode.body.error.issues[0].path).toBe('asNode');
    const good = await h.request('POST', `/api/threads/${thread}/state`, {
      values: { count: 7 },
      asNode: 'report',
    });
    expect(good.status).toBe(200);
    expect((await h.request('GET', `/api/threads/${thread}/state`)).body.values.count).toBe(7);
  });
});
