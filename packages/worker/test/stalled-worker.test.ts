import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, deleteQueue, type WeftClient } from '../src/index.js';
import {
  checkThreadLog,
  freshCheckpointer,
  missingServices,
  parseLog,
  pgUrl,
  redisUrl,
  spawnWorker,
  unique,
  type WorkerProcess,
} from './helpers.js';

const RUNS = 12;
const STEPS = 3;

/**
 * Issue #52: a node that blocks its worker's event loop longer than the lease and the job lock. The
 * other worker takes the job over and finds the thread still claimed by the stalled one; that conflict
 * must make the job wait and retry (it failed the run for good before: 11 of 36 runs ended failed).
 */
describe.skipIf(missingServices)('a worker stalled longer than its lease', () => {
  const queueName = unique('weft-test-stall');
  const prefix = `weft:${queueName}:test:`;
  const processes: WorkerProcess[] = [];
  let redis: Redis;
  let client: WeftClient;
  let drop: () => Promise<void>;
  let env: Record<string, string>;

  beforeAll(async () => {
    redis = new Redis(redisUrl);
    const store = await freshCheckpointer();
    drop = store.drop;
    env = {
      WEFT_REDIS_URL: redisUrl,
      WEFT_PG_URL: pgUrl,
      WEFT_QUEUE: queueName,
      WEFT_PG_SCHEMA: store.schema,
      WEFT_CONCURRENCY: '4',
      WEFT_LEASE_MS: '1000',
      WEFT_LOCK_MS: '1000',
      WEFT_STALLED_MS: '500',
      WEFT_STALL_MS: '3000',
    };
    client = createClient({ connection: redisUrl, queueName });
  });

  afterAll(async () => {
    await Promise.all(processes.map((worker) => worker.kill()));
    await client?.close();
    await deleteQueue({ connection: redisUrl, queueName });
    redis?.disconnect();
    await drop?.();
  });

  it('finishes every run, each step once, when the other worker hits the stalled one’s claim', async () => {
    processes.push(...['s1', 's2'].map((id) => spawnWorker(id, env)));
    await Promise.all(processes.map((worker) => worker.ready));
    const tag = unique('t');
    const handles = await Promise.all(
      Array.from({ length: RUNS }, (_, i) =>
        client.submit('stall', { count: 0, target: STEPS }, { threadId: `${tag}-${i}` }),
      ),
    );
    const outcomes = await Promise.all(handles.map((handle) => handle.result()));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(handles.map(() => 'done'));
    let takenOver = 0;
    for (const handle of handles) {
      const log = parseLog(await redis.lrange(`${prefix}log:${handle.threadId}`, 0, -1));
      // Each step's side effect once: the stalled worker's, or its successor's, never both.
      expect(checkThreadLog(log).repeats, handle.threadId).toEqual([]);
      expect(
        log.filter((entry) => entry.kind === 'node'),
        handle.threadId,
      ).toHaveLength(STEPS);
      if (new Set(log.filter((entry) => entry.kind === 'lease').map((entry) => entry.worker)).size > 1)
        takenOver += 1;
    }
    // The stall made the other worker take runs over (every run stalls once, on its first worker).
    expect(takenOver).toBeGreaterThan(0);
  }, 600_000);
});
