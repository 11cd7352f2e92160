import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshCheckpointer, missingServices, pgUrl, redisUrl, unique } from '../../test/helpers.js';
import { deleteQueue } from '../delete-queue.js';
import { PostgresRunJournal } from '../postgres-run-journal.js';
import { reconcileOnce } from './reconciler.js';

const job = (runId: string) => ({
  v: 1 as const,
  kind: 'start' as const,
  graph: 'g',
  threadId: `t-${runId}`,
  runId,
  payload: '1',
  epoch: 0,
  submittedAt: Date.now(),
});

describe.skipIf(missingServices)('reconcileOnce', () => {
  const queueName = unique('weft-test-reconcile');
  let redis: Redis;
  let queue: Queue;
  let journal: PostgresRunJournal;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
    queue = new Queue(queueName, { connection: redis });
    const store = await freshCheckpointer();
    drop = store.drop;
    journal = new PostgresRunJournal({ connectionString: pgUrl, schema: store.schema });
    await journal.setup();
  });
  afterAll(async () => {
    await queue?.close();
    await deleteQueue({ connection: redisUrl, queueName });
    redis?.disconnect();
    await journal?.close();
    await drop?.();
  });

  it('queues a journaled run Redis does not have, once, and records a job failed for good', async () => {
    const lost = job('lost');
    await journal.submitted(queueName, lost, { attempts: 2, backoffMs: 10 });
    expect(await reconcileOnce({ journal, queue, redis })).toBe(1);
    expect(await reconcileOnce({ journal, queue, redis })).toBe(0);
    const requeued = await queue.getJob('lost');
    expect(requeued?.data).toEqual(lost);
    expect(requeued?.opts.attempts).toBe(2);

    // A worker fails the job for good but dies before recording it: the next pass records it.
    const worker = new Worker(
      queueName,
      async () => {
        throw new UnrecoverableError('boom');
      },
      { connection: new Redis(redisUrl, { maxRetriesPerRequest: null }) },
    );
    await new Promise<void>((resolve) => worker.once('failed', () => resolve()));
    await worker.close();
    expect(await reconcileOnce({ journal, queue, redis })).toBe(0);
    const run = await journal.get(queueName, 'lost');
    expect(run?.status).toBe('failed');
    expect(run?.info.error).toBe('boom');
  });
});
