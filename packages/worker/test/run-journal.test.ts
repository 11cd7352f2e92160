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
