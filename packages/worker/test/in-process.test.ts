import type { Checkpointer, RunEvent } from '@weft/compose';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createWorker, deleteQueue, type WeftClient, type WeftWorker } from '../src/index.js';
import { testGraphs } from './fixtures/graphs.js';
import { checkThreadLog, freshCheckpointer, missingServices, parseLog, redisUrl, unique } from './helpers.js';

describe.skipIf(missingServices)('a worker in this process', () => {
  const queueName = unique('weft-test-inproc');
  const prefix = `weft:${queueName}:test:`;
  let redis: Redis;
  let worker: WeftWorker;
  let client: WeftClient<ReturnType<typeof testGraphs>>;
  let drop: () => Promise<void>;
  let checkpointer: Checkpointer;

  /** A worker of this queue in this process, logging its leases like the graphs log their tasks. */
  const startWorker = (workerId: string): Promise<WeftWorker> =>
    createWorker({
      graphs: testGraphs({ redis, prefix, workerId }, 1),
      connection: redisUrl,
      checkpointer,
      queueName,
      workerId,
      concurrency: 4,
      observer: {
        leaseAcquired: async (lease) =>
          void (await redis.rpush(`${prefix}log:${lease.threadId}`, `lease|${workerId}`)),
      },
    });

  beforeAll(async () => {
    redis = new Redis(redisUrl);
    const store = await freshCheckpointer();
    drop = store.drop;
    checkpointer = store.checkpointer;
    worker = await startWorker('w1');
    client = createClient({ connection: redisUrl, queueName });
  });

  afterAll(async () => {
    await client?.close();
    await worker?.close();
    await deleteQueue({ connection: redisUrl, queueName });
    redis?.disconnect();
    await drop?.();
  });

  it('runs a submitted graph and reports its result, events and record', async () => {
    const handle = await client.submit('counter', { count: 0, target: 5 });
    const events: RunEvent[] = [];
    for await (const event of handle.events()) events.push(event);
    const result = await handle.result();
    expect(result).toMatchObject({
      status: 'done',
      output: { count: 5, target: 5 },
      threadId: handle.threadId,
    });
    expect(events[0]?.type).toBe('run-start');
    expect(events.at(-1)?.type).toBe('run-end');
    expect(events.filter((e) => e.type === 'node-end')).toHaveLength(5);
    expect(await handle.info()).toMatchObject({
      status: 'done',
      workerId: 'w1',
      attempts: 1,
      graph: 'counter',
    });
    const listed = await client.listRuns({ limit: 10 });
    expect(listed.map((run) => run.runId)).toContain(handle.runId);
    const log = parseLog(await redis.lrange(`${prefix}log:${handle.threadId}`, 0, -1));
    expect(checkThreadLog(log)).toEqual({ overlaps: [], repeats: [] });
  });

  it('lets a late subscriber read the backlog of a finished run', async () => {
    const handle = await client.submit('counter', { count: 0, target: 3 });
    await handle.result();
    const controller = new AbortController();
    const types: string[] = [];
    for await (const event of client.events(handle.threadId, { signal: controller.signal })) {
      types.push(event.type);
      if (event.type === 'run-end') controller.abort();
    }
    expect(types[0]).toBe('run-start');
    expect(types.filter((type) => type === 'checkpoint-save')).toHaveLength(4);
    const entries = [];
    for await (const entry of client.entries(handle.threadId)) {
      entries.push(entry);
      if ('settled' in entry) break;
    }
    expect(entries.at(-1)).toMatchObject({ settled: { runId: handle.runId, status: 'done' } });
    // A reader that stopped after the third entry (an SSE `Last-Event-ID`) continues with the fourth.
    const after = [];
    for await (const entry of client.entries(handle.threadId, { from: entries[2]?.id ?? '' })) {
      after.push(entry);
      if ('settled' in entry) break;
    }
    expect(after).toEqual(entries.slice(3));
  });

  it('runs the jobs of one thread one after another, never at once', async () => {
    const threadId = unique('same-thread');
    const handles = await Promise.all(
      [0, 1, 2].map(() => client.submit('counter', { count: 0, target: 4 }, { threadId })),
    );
    const results = await Promise.all(handles.map((handle) => handle.result()));
    expect(results.map((result) => result.status)).toEqual(['done', 'done', 'done']);
    const log = parseLog(await redis.lrange(`${prefix}log:${threadId}`, 0, -1));
    // Three turns of four ticks each, every tick under a lease of its own turn.
    expect(log.filter((entry) => entry.kind === 'lease')).toHaveLength(3);
    expect(log.filter((entry) => entry.kind === 'node')).toHaveLength(12);
    const turns = log.map((entry) => entry.kind).join(',');
    expect(turns).toBe(Array.from({ length: 3 }, () => 'lease,node,node,node,node').join(','));
  });

  it('cancels a running run; the thread then continues from its checkpoint', async () => {
    const handle = await client.submit('slow', { log: [] });
    for await (const event of handle.events()) {
      if (event.type === 'node-start' && event.node === 'wait') break;
    }
    await client.cancel(handle.threadId);
    const cancelled = await handle.result();
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.checkpointId).toBeDefined();
    // Continuing the thread (a later run, untouched by the earlier cancel) does not run `first` again.
    await redis.set(`${prefix}fast:${handle.threadId}`, '1');
    const again = await client.submit('slow', null, { threadId: handle.threadId });
    expect(await again.result()).toMatchObject({ status: 'done', output: { log: ['first', 'waited'] } });
    const nodes = parseLog(await redis.lrange(`${prefix}log:${handle.threadId}`, 0, -1)).filter(
      (e) => e.kind === 'node',
    );
    expect(nodes.map((entry) => (entry.kind === 'node' ? entry.node : ''))).toEqual(['first', 'wait']);
  });

  it('cancels a run that is still queued before any worker starts it', async () => {
    const threadId = unique('queued-cancel');
    // With no worker running, the job is cancelled while queued; a worker started later never runs it.
    await worker.close();
    const handle = await client.submit('counter', { count: 0, target: 2 }, { threadId });
    await client.cancel(threadId);
    expect((await handle.info())?.status).toBe('queued');
    worker = await startWorker('w1');
    const result = await handle.result();
    expect(result.status).toBe('cancelled');
    expect(await redis.llen(`${prefix}log:${threadId}`)).toBe(0);
  });

  it('hands a running run back to the queue on close({ requeue }); another worker finishes it', async () => {
    const handle = await client.submit('slow', { log: [] });
    for await (const event of handle.events()) {
      if (event.type === 'node-start' && event.node === 'wait') break;
    }
    await worker.close({ requeue: true });
    expect((await handle.info())?.status).toBe('running');
    await redis.set(`${prefix}fast:${handle.threadId}`, '1');
    worker = await startWorker('w2');
    expect(await handle.result()).toMatchObject({ status: 'done', output: { log: ['first', 'waited'] } });
    const info = await handle.info();
    expect(info?.workerId).toBe('w2');
    expect(info?.attempts).toBeGreaterThanOrEqual(2);
    const nodes = parseLog(await redis.lrange(`${prefix}log:${handle.threadId}`, 0, -1)).filter(
      (e) => e.kind === 'node',
    );
    expect(nodes.map((entry) => (entry.kind === 'node' ? `${entry.node}@${entry.worker}` : ''))).toEqual([
      'first@w1',
      'wait@w2',
    ]);
  });
});
