import type { Checkpointer, NodeEndEvent } from '@weft/compose';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createClient,
  createWorker,
  deleteQueue,
  type JobRun,
  type WeftClient,
  type WeftWorker,
} from '../src/index.js';
import { testGraphs } from './fixtures/graphs.js';
import { freshCheckpointer, missingServices, redisUrl, unique } from './helpers.js';

describe.skipIf(missingServices)('propagation fields from the client to the worker', () => {
  const queueName = unique('weft-test-carrier');
  const prefix = `weft:${queueName}:test:`;
  let redis: Redis;
  let worker: WeftWorker;
  let client: WeftClient<ReturnType<typeof testGraphs>>;
  let plain: WeftClient<ReturnType<typeof testGraphs>>;
  let drop: () => Promise<void>;
  let checkpointer: Checkpointer;
  const jobs: JobRun[] = [];
  const ends = new Map<string, string[]>();
  let throwFor: string | undefined;

  beforeAll(async () => {
    redis = new Redis(redisUrl);
    const store = await freshCheckpointer();
    drop = store.drop;
    checkpointer = store.checkpointer;
    worker = await createWorker({
      graphs: testGraphs({ redis, prefix, workerId: 'w1' }, 1),
      connection: redisUrl,
      checkpointer,
      queueName,
      workerId: 'w1',
      callbacks: (job) => {
        jobs.push(job);
        if (job.threadId === throwFor) throw new Error('callbacks broke');
        const seen: string[] = [];
        ends.set(job.runId, seen);
        return { onEnd: (event: NodeEndEvent) => seen.push(`${event.node}@${event.step}`) };
      },
    });
    client = createClient({
      connection: redisUrl,
      queueName,
      carrier: (run) => ({
        traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01`,
        note: `${run.kind}:${run.graph}`,
      }),
    });
    plain = createClient({ connection: redisUrl, queueName });
  });

  afterAll(async () => {
    await client?.close();
    await plain?.close();
    await worker?.close();
    await deleteQueue({ connection: redisUrl, queueName });
    redis?.disconnect();
    await drop?.();
  });

  it('hands the carrier written at submit to the worker callbacks of the run, which hear its events', async () => {
    const handle = await client.submit('counter', { count: 0, target: 2 }, { threadId: unique('t') });
    const handleEvents = handle.events();
    expect((await handle.result()).status).toBe('done');
    const job = jobs.find((j) => j.runId === handle.runId);
    expect(job).toEqual({
      graph: 'counter',
      runId: handle.runId,
      threadId: handle.threadId,
      kind: 'start',
      attempt: 1,
      carrier: { traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01`, note: 'start:counter' },
      continues: undefined,
      onPause: expect.any(Function),
    });
    expect(ends.get(handle.runId)).toEqual(['tick@0', 'tick@1']);
    // The worker's own event stream still flows next to the job's callbacks.
    const types: string[] = [];
    for await (const event of handleEvents) types.push(event.type);
    expect(types.at(-1)).toBe('run-end');
  });

  it('sends no carrier without the option, and a callbacks option that throws does not fail the run', async () => {
    const report = vi.spyOn(console, 'error').mockImplementation(() => {});
    throwFor = unique('t');
    const handle = await plain.submit('counter', { count: 0, target: 1 }, { threadId: throwFor });
    expect((await handle.result()).status).toBe('done');
    expect(jobs.find((j) => j.runId === handle.runId)?.carrier).toBeUndefined();
    expect(report).toHaveBeenCalledWith(expect.stringContaining('callbacks option threw'), expect.any(Error));
    report.mockRestore();
  });
});
