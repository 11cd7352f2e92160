import type { Checkpointer } from '@weft/compose';
import { END, START, StateGraph } from '@weft/compose';
import type { CheckpointRecord } from '@weft/compose/store';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createClient,
  createWorker,
  deleteQueue,
  rateLimited,
  type WeftClient,
  type WeftWorker,
  WorkerError,
} from '../src/index.js';
import { counterGraph } from './fixtures/graphs.js';
import { checkThreadLog, freshCheckpointer, missingServices, parseLog, redisUrl, unique } from './helpers.js';

describe.skipIf(missingServices)('failures', () => {
  const queueName = unique('weft-test-failures');
  const prefix = `weft:${queueName}:test:`;
  let redis: Redis;
  let worker: WeftWorker;
  let client: WeftClient;
  let drop: () => Promise<void>;
  /** Threads whose next checkpoint `put` at this step fails once, as if PostgreSQL went away. */
  const failPutAt = new Map<string, number>();
  let rateLimitOnce = true;

  beforeAll(async () => {
    redis = new Redis(redisUrl);
    const store = await freshCheckpointer();
    drop = store.drop;
    const inner = store.checkpointer;
    const flaky: Checkpointer = {
      put: async (record: CheckpointRecord) => {
        if (failPutAt.get(record.threadId) === record.step) {
          failPutAt.delete(record.threadId);
          throw Object.assign(new Error('connection terminated unexpectedly'), { code: 'ECONNRESET' });
        }
        return inner.put(record);
      },
      putWrites: (record) => inner.putWrites(record),
      get: (threadId, options) => inner.get(threadId, options),
      list: (threadId, options) => inner.list(threadId, options),
      deleteThread: (threadId) => inner.deleteThread(threadId),
      claimThread: (threadId) => inner.claimThread(threadId),
    };
    const effects = { redis, prefix, workerId: 'w1' };
    const failing = new StateGraph(z.object({ n: z.number() }))
      .addNode('boom', (state) => {
        if (state.n < 0) throw new Error('negative input');
        if (rateLimitOnce) {
          rateLimitOnce = false;
          throw rateLimited(300);
        }
        return { n: state.n + 1 };
      })
      .addEdge(START, 'boom')
      .addEdge('boom', END);
    worker = await createWorker({
      graphs: { counter: counterGraph(flaky, effects, 1), failing: failing.compile({ checkpointer: flaky }) },
      connection: redisUrl,
      checkpointer: flaky,
      queueName,
      workerId: 'w1',
      observer: {
        leaseAcquired: async (lease) =>
          void (await redis.rpush(`${prefix}log:${lease.threadId}`, 'lease|w1')),
      },
    });
    client = createClient({ connection: redisUrl, queueName, retry: { attempts: 3, backoffMs: 50 } });
  });

  afterAll(async () => {
    await client?.close();
    await worker?.close();
    await deleteQueue({ connection: redisUrl, queueName });
    redis?.disconnect();
    await drop?.();
  });

  it('retries a run after an infrastructure error and continues from its checkpoint', async () => {
    const threadId = unique('flaky');
    failPutAt.set(threadId, 3);
    const handle = await client.submit('counter', { count: 0, target: 6 }, { threadId });
    expect(await handle.result()).toMatchObject({ status: 'done', output: { count: 6 } });
    expect(failPutAt.has(threadId)).toBe(false);
    expect(await handle.info()).toMatchObject({ status: 'done', attempts: 2 });
    // Steps 0–2 were checkpointed and did not run again. Step 3 was in flight: its only task finished and
    // stored its writes (workers run with `taskWrites: 'all'`), then the step's checkpoint failed — so
    // the retry reuses that task's writes and no task runs twice.
    const log = parseLog(await redis.lrange(`${prefix}log:${threadId}`, 0, -1));
    expect(log.filter((entry) => entry.kind === 'lease')).toHaveLength(2);
    expect(checkThreadLog(log)).toEqual({ overlaps: [], repeats: [] });
    expect(log.filter((entry) => entry.kind === 'node')).toHaveLength(6);
  });

  it('fails a run for good when a node fails, without job retries', async () => {
    rateLimitOnce = false;
    const handle = await client.submit('failing', { n: -1 });
    const error = await handle.result().catch((thrown: unknown) => thrown);
    expect(WorkerError.isInstance(error) && error.code).toBe('RUN_FAILED');
    expect(String((error as Error).message)).toContain('negative input');
    expect(await handle.info()).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('fails a job naming a graph the worker does not have', async () => {
    const handle = await client.submit('nonexistent', {});
    await expect(handle.result()).rejects.toThrow(/not registered with this worker/);
  });

  it('puts a rate-limited run back on the queue and finishes it later', async () => {
    rateLimitOnce = true;
    const handle = await client.submit('failing', { n: 1 });
    expect(await handle.result()).toMatchObject({ status: 'done', output: { n: 2 } });
    expect(rateLimitOnce).toBe(false);
    expect((await handle.info())?.attempts).toBe(2);
  });
});
