import { type Checkpointer, StateGraph } from '@weft/compose';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createClient,
  createWorker,
  PostgresRunJournal,
  type WeftClient,
  type WeftWorker,
} from '../src/index.js';
import { type OwnRedis, startOwnRedis } from './fixtures/own-redis.js';
import { freshCheckpointer, missingServices, pgUrl, unique } from './helpers.js';

const RUNS = 100;
const STEPS = 4;
/** The restart happens once this many side effects ran (a third of them), with tasks held in flight. */
const RESTART_AFTER = Math.floor((RUNS * STEPS) / 3);

/** Side effects by `thread:step`: every one must happen exactly once. */
const effects = new Map<string, number>();
let effectCount = 0;
let openGate: () => void = () => {};
const gate = new Promise<void>((resolve) => {
  openGate = resolve;
});
let reachedRestartPoint: () => void = () => {};
const restartPoint = new Promise<void>((resolve) => {
  reachedRestartPoint = resolve;
});

const state = z.object({ count: z.number(), target: z.number() });

/** Counts to `target`; each step is a side effect, and tasks past the restart point wait for the gate. */
function stepGraph(checkpointer: Checkpointer) {
  return new StateGraph(state)
    .addNode('step', async (s, ctx) => {
      const key = `${ctx.threadId}:${s.count}`;
      effects.set(key, (effects.get(key) ?? 0) + 1);
      effectCount += 1;
      if (effectCount >= RESTART_AFTER) {
        reachedRestartPoint();
        await gate;
      }
      return { count: s.count + 1 };
    })
    .addEdge('__start__', 'step')
    .addConditionalEdges('step', (s) => (s.count < s.target ? 'step' : '__end__'))
    .compile({ checkpointer });
}

describe.skipIf(missingServices)('a Redis restart without persistence', () => {
  const queueName = unique('weft-test-restart');
  let redis: OwnRedis;
  let journal: PostgresRunJournal;
  let drop: () => Promise<void>;
  let workers: WeftWorker[] = [];
  let client: WeftClient<{ steps: typeof stepGraph }>;

  beforeAll(async () => {
    redis = await startOwnRedis();
    const store = await freshCheckpointer();
    drop = store.drop;
    journal = new PostgresRunJournal({ connectionString: pgUrl, schema: store.schema });
    await journal.setup();
    const start = (workerId: string) =>
      createWorker({
        graphs: { steps: stepGraph },
        connection: redis.url,
        checkpointer: store.checkpointer,
        journal,
        queueName,
        workerId,
        concurrency: 4,
        reconcileIntervalMs: 200,
        lease: { retryMs: 100 },
        onError: () => {}, // Redis going away is the point of this test
      });
    workers = [await start('w1'), await start('w2')];
    client = createClient({ connection: redis.url, queueName, journal });
  }, 600_000);

  afterAll(async () => {
    openGate();
    await client?.close();
    for (const worker of workers) await worker.close();
    await journal?.close();
    await redis?.stop();
    await drop?.();
  });

  it('loses no run and runs no side effect twice', async () => {
    const handles = await Promise.all(
      Array.from({ length: RUNS }, () => client.submit('steps', { count: 0, target: STEPS })),
    );
    const results = handles.map((handle) => handle.result());
    for (const result of results) result.catch(() => undefined); // observed below

    await restartPoint; // a third of the work done, tasks held in flight, the rest queued
    await redis.restart();
    const probe = new Redis(redis.url);
    // The client's index of runs was in Redis only: gone, as is every queued job.
    expect(await probe.zcard(`weft:${queueName}:runs`)).toBe(0);
    probe.disconnect();
    openGate();

    const settled = await Promise.all(results);
    expect(settled.map((result) => result.status)).toEqual(handles.map(() => 'done'));
    for (const result of settled) expect(result.output).toEqual({ count: STEPS, target: STEPS });
    const repeated = [...effects].filter(([, times]) => times !== 1);
    expect(repeated).toEqual([]);
    expect(effects.size).toBe(RUNS * STEPS);
    for (const handle of handles) {
      expect((await journal.get(queueName, handle.runId))?.status).toBe('done');
    }
  }, 600_000);
});
