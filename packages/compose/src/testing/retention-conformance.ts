import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { MaintainableCheckpointer } from '../checkpoint/maintenance/checkpoint-maintenance.js';
import { checkpointStats } from '../checkpoint/maintenance/checkpoint-stats.js';
import { compactThread } from '../checkpoint/maintenance/compact-thread.js';
import { pruneCheckpoints } from '../checkpoint/maintenance/prune-checkpoints.js';
import { exportThread, importThread } from '../checkpoint/maintenance/thread-export.js';
import { verifyCheckpoints } from '../checkpoint/maintenance/verify-checkpoints.js';
import { StateGraph } from '../graph/state-graph.js';
import { Command } from '../vocabulary/command.js';
import { END, START } from '../vocabulary/constants.js';

/**
 * What a retention conformance factory returns: a fresh, empty maintainable store and how to dispose of it.
 *
 * @example
 * ```ts
 * const fixture: RetentionFixture = { checkpointer: new MemoryCheckpointer() };
 * ```
 */
export interface RetentionFixture {
  readonly checkpointer: MaintainableCheckpointer;
  /** Runs after `checkpointer.close()` (if defined). */
  readonly cleanup?: () => Promise<void>;
}

const DAY = 24 * 3_600_000;

/** A counter to `to`: with a short note most checkpoints are snapshots, with a long one deltas. */
function counter(checkpointer: MaintainableCheckpointer, gate?: () => Promise<void>) {
  const State = z.object({ note: z.string(), n: z.number(), to: z.number() });
  return new StateGraph(State)
    .addNode('inc', async (state) => {
      if (gate) await gate();
      return { n: state.n + 1 };
    })
    .addEdge(START, 'inc')
    .addConditionalEdges('inc', (state) => (state.n < state.to ? 'inc' : END))
    .compile({ checkpointer, name: 'counter', maxSteps: 500 });
}

/** A graph that asks before finishing. */
function approval(checkpointer: MaintainableCheckpointer) {
  const State = z.object({ n: z.number(), answer: z.string().optional() });
  return new StateGraph(State)
    .addNode('inc', (state) => ({ n: state.n + 1 }))
    .addNode('ask', (_state, ctx) => ({ answer: ctx.interrupt<string>('ok?') }))
    .addEdge(START, 'inc')
    .addConditionalEdges('inc', (state) => (state.n < 5 ? 'inc' : 'ask'))
    .addEdge('ask', END)
    .compile({ checkpointer });
}

/**
 * Registers the shared retention suite: every policy (`keepLast`, `maxAgeMs`, `headLineageOnly`,
 * `threadTtlMs`, pending interrupts kept, dry run) on real graph runs, time travel on what is kept,
 * pruning raced against running and paused runs, and the maintenance tools on the same store: stats,
 * verify (damaged payloads and broken chains reported without stopping), export and import. `factory` runs before each test and returns a fresh store.
 *
 * @example
 * ```ts
 * import { describeRetentionConformance } from '@weft/compose/testing';
 *
 * describeRetentionConformance('MemoryCheckpointer', async () => ({ checkpointer: new MemoryCheckpointer() }));
 * ```
 */
export function describeRetentionConformance(name: string, factory: () => Promise<RetentionFixture>): void {
  describe(`${name} (retention conformance)`, () => {
    let fixture: RetentionFixture | undefined;
    beforeEach(async () => {
      fixture = await factory();
    });
    afterEach(async () => {
      const current = fixture;
      fixture = undefined;
      await current?.checkpointer.close?.();
      await current?.cleanup?.();
    });
    const store = (): MaintainableCheckpointer => {
      if (fixture === undefined) throw new Error('the retention factory did not produce a store');
      return fixture.checkpointer;
    };

    /** The values of every checkpoint of a thread, by id. */
    async function valuesById(threadId: string, app = counter(store())): Promise<Map<string, unknown>> {
      const history = await app.getStateHistory(threadId);
      return new Map(history.map((snapshot) => [snapshot.checkpointId, snapshot.values]));
    }

    /** Every kept checkpoint loads with the values it had before pruning; resolves with how many were kept. */
    async function expectKeptUnchanged(threadId: string, before: Map<string, unknown>): Promise<number> {
      const after = await valuesById(threadId);
      for (const [id, values] of after) if (before.has(id)) expect(values).toEqual(before.get(id));
      return after.size;
    }

    it('keepLast keeps the newest checkpoints and what rebuilding them reads', async () => {
      const app = counter(store());
      await app.invoke({ note: '', n: 0, to: 60 }, { threadId: 'short' });
      await app.invoke({ note: 'x'.repeat(4000), n: 0, to: 60 }, { threadId: 'long' });
      const before = (await store().list('short')).length;
      const shortValues = await valuesById('short');
      const longValues = await valuesById('long');
      const report = await pruneCheckpoints(store(), { policy: { keepLast: 3 } });
      expect(report.skipped).toEqual([]);
      const short = await store().list('short');
      expect(short.length).toBeLessThan(before);
      expect(short.length).toBeGreaterThanOrEqual(3);
      expect(await expectKeptUnchanged('short', shortValues)).toBe(short.length);
      // The long note makes every later checkpoint a delta on the first: all of them stay, all load.
      expect((await store().list('long')).length).toBe(before);
      await expectKeptUnchanged('long', longValues);
      expect((await app.getState('short'))?.values).toMatchObject({ n: 60 });
      expect(report.deletedCheckpoints).toBe(before - short.length);
    });

    it('maxAgeMs drops old checkpoints but never the head; a dry run deletes nothing', async () => {
      const app = counter(store());
      await app.invoke({ note: '', n: 0, to: 40 }, { threadId: 't' });
      const before = (await store().list('t')).length;
      const values = await valuesById('t');
      const later = () => Date.now() + DAY;
      const preview = await pruneCheckpoints(store(), {
        policy: { maxAgeMs: 3_600_000 },
        now: later,
        dryRun: true,
      });
      expect(preview.dryRun).toBe(true);
      expect(preview.deletedCheckpoints).toBeGreaterThan(0);
      expect((await store().list('t')).length).toBe(before);
      const done = await pruneCheckpoints(store(), { policy: { maxAgeMs: 3_600_000 }, now: later });
      expect(done.deletedCheckpoints).toBe(preview.deletedCheckpoints);
      expect((await store().list('t')).length).toBe(before - done.deletedCheckpoints);
      expect((await app.getState('t'))?.values).toMatchObject({ n: 40 });
      await expectKeptUnchanged('t', values);
    });

    it('headLineageOnly drops an abandoned branch; time travel works on what is kept', async () => {
      const app = counter(store());
      await app.invoke({ note: '', n: 0, to: 6 }, { threadId: 't' });
      const history = await app.getStateHistory('t');
      const fork = history.find((snapshot) => snapshot.step === 2);
      if (fork === undefined) throw new Error('no checkpoint at step 2');
      await app.updateState('t', { n: 100 }, { checkpointId: fork.checkpointId, asNode: 'inc' });
      const abandoned = history.filter((snapshot) => snapshot.step > 2).map((s) => s.checkpointId);
      await pruneCheckpoints(store(), { policy: { headLineageOnly: true } });
      const kept = new Set((await store().list('t')).map((record) => record.id));
      for (const id of abandoned) expect(kept.has(id)).toBe(false);
      expect(kept.has(fork.checkpointId)).toBe(true);
      expect((await app.getState('t'))?.values).toMatchObject({ n: 100 });
      const old = await app.getState('t', { checkpointId: fork.checkpointId });
      expect(old?.values).toMatchObject({ n: 3 });
    });

    it('keeps a checkpoint with a pending interrupt off the head, and a paused run resumes after pruning', async () => {
      const app = approval(store());
      const paused = await app.run({ n: 0 }, { threadId: 't' });
      expect(paused.status).toBe('interrupted');
      const pausedAt = (await store().get('t'))?.checkpoint.id as string;
      await pruneCheckpoints(store(), { policy: { keepLast: 1, maxAgeMs: 1 }, now: () => Date.now() + DAY });
      expect(await app.invoke(new Command({ resume: 'yes' }), { threadId: 't' })).toMatchObject({
        n: 5,
        answer: 'yes',
      });

      const again = approval(store());
      await again.run({ n: 0 }, { threadId: 'u' });
      const waiting = (await store().get('u'))?.checkpoint.id as string;
      const first = (await store().list('u')).at(-1)?.id as string;
      await again.updateState('u', { n: 40 }, { checkpointId: first, asNode: 'inc' }); // a fork: new head
      await pruneCheckpoints(store(), { policy: { keepLast: 1, headLineageOnly: true } });
      const kept = (await store().list('u')).map((record) => record.id);
      expect(kept).toContain(waiting);
      expect(pausedAt).not.toBe(waiting);
    });

    it('threadTtlMs deletes idle threads whole (previewed by a dry run)', async () => {
      const app = counter(store());
      await app.invoke({ note: '', n: 0, to: 2 }, { threadId: 'a' });
      await app.invoke({ note: '', n: 0, to: 2 }, { threadId: 'b' });
      const policy = { threadTtlMs: DAY };
      expect((await pruneCheckpoints(store(), { policy })).deletedThreads).toEqual([]);
      const later = () => Date.now() + 2 * DAY;
      const preview = await pruneCheckpoints(store(), { policy, now: later, dryRun: true });
      expect([...preview.deletedThreads].sort()).toEqual(['a', 'b']);
      expect(await store().get('a')).toBeDefined();
      const done = await pruneCheckpoints(store(), { policy, now: later, threadIds: ['a'] });
      expect(done.deletedThreads).toEqual(['a']);
      expect(await store().get('a')).toBeUndefined();
      expect(await store().get('b')).toBeDefined();
    });

    it('lists threads with their size, namespaces and graph', async () => {
      const app = counter(store());
      await app.invoke({ note: '', n: 0, to: 3 }, { threadId: 'a' });
      await app.invoke({ note: 'y'.repeat(100), n: 0, to: 3 }, { threadId: 'b' });
      const threads = await store().listThreads();
      expect(threads.map((thread) => thread.threadId)).toEqual(['a', 'b']);
      expect(threads[0]).toMatchObject({ namespaces: [''], checkpoints: (await store().list('a')).length });
      expect(threads[1]?.bytes).toBeGreaterThan(threads[0]?.bytes as number);
      expect(await store().listThreads({ after: 'a' })).toHaveLength(1);
      expect(await store().listThreads({ threadId: 'missing' })).toEqual([]);
    });

    it('skips a thread a run holds, and prunes it once the run ends', async () => {
      let release: () => void = () => undefined;
      let entered: () => void = () => undefined;
      const inside = new Promise<void>((resolve) => {
        entered = resolve;
      });
      const blocked = new Promise<void>((resolve) => {
        release = resolve;
      });
      let gated = false;
      const app = counter(store(), async () => {
        if (!gated) return;
        entered();
        await blocked;
      });
      await app.invoke({ note: '', n: 0, to: 40 }, { threadId: 't' });
      const before = (await store().list('t')).length;
      gated = true;
      const running = app.invoke({ note: '', n: 0, to: 45 }, { threadId: 't' });
      await inside;
      const during = await pruneCheckpoints(store(), { policy: { keepLast: 2 } });
      expect(during.skipped).toEqual([{ threadId: 't', ns: '', reason: 'busy' }]);
      expect(during.deletedCheckpoints).toBe(0);
      expect((await store().list('t')).length).toBeGreaterThanOrEqual(before);
      gated = false;
      release();
      expect(await running).toMatchObject({ n: 45 });
      const values = await valuesById('t');
      const after = await pruneCheckpoints(store(), { policy: { keepLast: 2 } });
      expect(after.skipped).toEqual([]);
      expect(after.deletedCheckpoints).toBeGreaterThan(0);
      await expectKeptUnchanged('t', values);
    });

    it('races pruning against runs on one thread: every run completes, every kept checkpoint loads', async () => {
      const app = counter(store(), async () => undefined);
      let done = false;
      const runs = (async () => {
        let n = 0;
        for (let round = 0; round < 6; round++) {
          const result = await app.invoke({ note: '', n, to: n + 15 }, { threadId: 't' });
          n = (result as { n: number }).n;
        }
        done = true;
        return n;
      })();
      let prunes = 0;
      while (!done) {
        await pruneCheckpoints(store(), { policy: { keepLast: 2 } });
        prunes++;
      }
      expect(await runs).toBe(90);
      expect(prunes).toBeGreaterThan(0);
      const values = await valuesById('t');
      await pruneCheckpoints(store(), { policy: { keepLast: 2 } });
      await expectKeptUnchanged('t', values);
      // Time travel from a kept older checkpoint forks on a snapshot of its own, so it survives more pruning.
      const older = (await app.getStateHistory('t')).at(-1);
      if (older === undefined) throw new Error('no history');
      await app.invoke(null, { threadId: 't', checkpointId: older.checkpointId });
      const forked = await valuesById('t');
      await pruneCheckpoints(store(), { policy: { keepLast: 1 } });
      expect((await app.getState('t'))?.values).toMatchObject({ n: 90 });
      await expectKeptUnchanged('t', forked);
    });

    it('counts threads, checkpoints and bytes per graph', async () => {
      const app = counter(store());
      await app.invoke({ note: '', n: 0, to: 3 }, { threadId: 'a' });
      await app.invoke({ note: 'z'.repeat(500), n: 0, to: 3 }, { threadId: 'b' });
      const stats = await checkpointStats(store(), { top: 1 });
      expect(stats).toMatchObject({ threads: 2, graphs: [{ graph: 'counter', threads: 2 }] });
      expect(stats.checkpoints).toBe((await store().list('a')).length + (await store().list('b')).length);
      expect(stats.largest.map((thread) => thread.threadId)).toEqual(['b']);
    });

    it('verify reports every damaged payload and broken chain, naming thread and checkpoint, without stopping', async () => {
      const app = counter(store());
      await app.invoke({ note: 'n'.repeat(300), n: 0, to: 4 }, { threadId: 'good' });
      const records = (await store().list('good')).reverse();
      const [first, second, third] = records;
      if (first === undefined || second === undefined || third === undefined)
        throw new Error('too few checkpoints');
      // A copy with one payload edited at rest (its checksum left as it was) and one delta whose parent is gone.
      await store().put({ ...first, threadId: 'bad' });
      await store().put({ ...second, threadId: 'bad', payload: second.payload.replace('"n",1', '"n",7') });
      await store().put({ ...third, threadId: 'bad', parentId: 'gone' });
      const seen: string[] = [];
      const report = await verifyCheckpoints(store(), { onIssue: (issue) => seen.push(issue.checkpointId) });
      expect(report.threads).toBe(2);
      expect(report.checkpoints).toBe(records.length + 3);
      expect(report.issues).toEqual([
        expect.objectContaining({ threadId: 'bad', ns: '', checkpointId: second.id, kind: 'checksum' }),
        expect.objectContaining({ threadId: 'bad', checkpointId: third.id, kind: 'chain' }),
      ]);
      expect(seen).toEqual([second.id, third.id]);
      expect((await verifyCheckpoints(store(), { threadIds: ['good'] })).issues).toEqual([]);
    });

    it('exports a thread as JSON and imports it under another id, refusing to overwrite', async () => {
      const app = approval(store());
      await app.run({ n: 0 }, { threadId: 'src' });
      const data = JSON.parse(JSON.stringify(await exportThread(store(), 'src')));
      expect(data).toMatchObject({ format: 'weft-thread', version: 1, threadId: 'src' });
      const imported = await importThread(store(), data, { as: 'copy' });
      expect(imported).toMatchObject({ threadId: 'copy', checkpoints: data.checkpoints.length });
      expect((await app.getState('copy'))?.values).toEqual((await app.getState('src'))?.values);
      expect(await app.invoke(new Command({ resume: 'moved' }), { threadId: 'copy' })).toMatchObject({
        answer: 'moved',
      });
      await expect(importThread(store(), data, { as: 'copy' })).rejects.toMatchObject({ code: 'CHECKPOINT' });
      await expect(importThread(store(), { ...data, format: 'other' })).rejects.toThrow(/format is "other"/);
      await expect(exportThread(store(), 'missing')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('compacts a long delta chain into a snapshot and the newest checkpoints, transparently', async () => {
      const app = counter(store());
      const note = 'c'.repeat(5000); // every checkpoint after the first is a delta on it
      await app.invoke({ note, n: 0, to: 120 }, { threadId: 't' });
      const before = await valuesById('t');
      const rows = (await store().list('t')).length;
      const report = await compactThread(app, 't', { keepLast: 10 });
      expect(report.snapshot).toBeDefined();
      expect(report.rebased).toBe(9);
      expect(report.deleted).toBe(rows - 10);
      const kept = await store().list('t');
      expect(kept).toHaveLength(10);
      expect(kept.at(-1)?.id).toBe(report.snapshot);
      expect(kept.every((record) => record.baseId === report.snapshot)).toBe(true);
      expect(await expectKeptUnchanged('t', before)).toBe(10);
      expect((await app.getState('t'))?.values).toEqual(before.get(kept[0]?.id as string));
      expect(await app.invoke({ note, n: 120, to: 130 }, { threadId: 't' })).toMatchObject({ n: 130 });
      await expectKeptUnchanged('t', await valuesById('t'));
      expect(await compactThread(app, 't', { keepLast: 1000 })).toMatchObject({ deleted: 0 });
      await expect(compactThread(app, 't', { keepLast: 0 })).rejects.toThrow(
        /keepLast must be a positive integer/,
      );
    });
  });
}
