import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresRunJournal, WorkerError } from '../src/index.js';
import { freshCheckpointer, missingServices, pgUrl, unique } from './helpers.js';

const job = (runId: string) => ({
  v: 1 as const,
  kind: 'start' as const,
  graph: 'counter',
  threadId: `thread-${runId}`,
  runId,
  payload: '{"count":0}',
  epoch: 0,
  submittedAt: Date.now(),
});

describe('PostgresRunJournal options', () => {
  it('refuses a schema that is not a plain identifier, and a missing connection', () => {
    expect(() => new PostgresRunJournal({ connectionString: 'postgres://x', schema: 'a"; drop' })).toThrow(
      WorkerError,
    );
    expect(() => new PostgresRunJournal({})).toThrow(/needs a pool or a connectionString/);
  });
});

describe.skipIf(missingServices)('PostgresRunJournal', () => {
  const queue = unique('weft-test-journal');
  let journal: PostgresRunJournal;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const store = await freshCheckpointer();
    drop = store.drop;
    journal = new PostgresRunJournal({ connectionString: pgUrl, schema: store.schema });
    await journal.setup();
    await journal.setup(); // idempotent
  });
  afterAll(async () => {
    await journal?.close();
    await drop?.();
  });

  it('records a run once, tracks it, keeps the first baseline and the first settlement', async () => {
    await journal.submitted(queue, job('r1'), { attempts: 3, backoffMs: 10 });
    await journal.submitted(queue, { ...job('r1'), graph: 'other' }, { attempts: 9, backoffMs: 10 });
    expect((await journal.unfinished(queue, 10)).map((run) => [run.job.runId, run.job.graph])).toEqual([
      ['r1', 'counter'],
    ]);
    const running = await journal.running(queue, 'r1', { id: 'w1', attempts: 1, latest: 'cp-1' });
    expect(running?.info).toMatchObject({ status: 'running', workerId: 'w1', attempts: 1 });
    expect(running?.baseline).toBe('cp-1');
    const retried = await journal.running(queue, 'r1', { id: 'w2', attempts: 2, latest: 'cp-7' });
    expect(retried?.baseline).toBe('cp-1');
    expect(retried?.info).toMatchObject({ workerId: 'w2', attempts: 2 });
    expect(
      await journal.running(queue, 'unknown', { id: 'w1', attempts: 1, latest: 'cp-1' }),
    ).toBeUndefined();
    const outcome = { status: 'done' as const, output: { count: 3 }, interrupts: [], checkpointId: 'cp-9' };
    expect(await journal.settle(queue, 'r1', { status: 'done', outcome })).toBe(true);
    await journal.settle(queue, 'r1', { status: 'failed', outcome: { error: 'late' } });
    const settled = await journal.get(queue, 'r1');
    expect(settled?.status).toBe('done');
    expect(settled?.outcome).toEqual(outcome);
    expect((await journal.running(queue, 'r1', { id: 'w3', attempts: 3 }))?.status).toBe('done');
    expect(await journal.unfinished(queue, 10)).toEqual([]);
    expect(await journal.settle(queue, 'unknown', { status: 'done', outcome })).toBe(false);
  });

  it('keeps the submit carrier, and hands what a paused run kept to the run after it on the thread', async () => {
    const carrier = { traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` };
    const thread = { threadId: 'thread-paused' };
    const base = Date.now();
    await journal.submitted(
      queue,
      { ...job('p1'), ...thread, carrier, submittedAt: base },
      { attempts: 1, backoffMs: 10 },
    );
    expect((await journal.get(queue, 'p1'))?.job.carrier).toEqual(carrier);
    const paused = {
      status: 'interrupted' as const,
      output: undefined,
      interrupts: [],
      checkpointId: 'cp-1',
    };
    const kept = { traceparent: `00-${'a'.repeat(32)}-${'c'.repeat(16)}-01` };
    await journal.settle(queue, 'p1', { status: 'interrupted', outcome: paused, pauseCarrier: kept });
    const resume = { ...job('p2'), ...thread, kind: 'resume' as const, submittedAt: base + 1 };
    await journal.submitted(queue, resume, { attempts: 1, backoffMs: 10 });
    expect(await journal.pausedCarrier(queue, 'thread-paused', 'p2')).toEqual(kept);
    // The run after a run that finished continues nothing.
    const done = { status: 'done' as const, output: 1, interrupts: [], checkpointId: 'cp-2' };
    await journal.settle(queue, 'p2', { status: 'done', outcome: done });
    await journal.submitted(
      queue,
      { ...resume, runId: 'p3', submittedAt: base + 2 },
      { attempts: 1, backoffMs: 10 },
    );
    expect(await journal.pausedCarrier(queue, 'thread-paused', 'p3')).toBeUndefined();
    expect(await journal.pausedCarrier(queue, 'thread-paused', 'p1')).toBeUndefined();
  });

  it('gives a thread lease to one holder until it is released or expires', async () => {
    const long = { ttlMs: 60_000 };
    expect(await journal.acquireLease(queue, 't1', { token: 'a', ...long })).toBe(true);
    expect(await journal.acquireLease(queue, 't1', { token: 'b', ...long })).toBe(false);
    expect(await journal.renewLease(queue, 't1', { token: 'b', ...long })).toBe(false);
    expect(await journal.renewLease(queue, 't1', { token: 'a', ...long })).toBe(true);
    await journal.releaseLease(queue, 't1', 'b'); // not b's: stays
    expect(await journal.acquireLease(queue, 't1', { token: 'b', ...long })).toBe(false);
    await journal.releaseLease(queue, 't1', 'a');
    expect(await journal.acquireLease(queue, 't1', { token: 'b', ttlMs: -1000 })).toBe(true);
    // Already expired (PostgreSQL's clock): the next holder takes it over.
    expect(await journal.acquireLease(queue, 't1', { token: 'c', ...long })).toBe(true);
    expect(await journal.renewLease(queue, 't1', { token: 'b', ...long })).toBe(false);
  });
});
