import { type Checkpointer, END, START, StateGraph } from '@weft/compose';
import { PostgresCheckpointer } from '@weft/store-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient, createWorker, deleteQueue, type WeftClient, type WeftWorker } from '../src/index.js';
import { missingServices, pgUrl, redisUrl, unique } from './helpers.js';

const RUNS = 8;
const STEPS = 10;

/** A gate the first step of every run waits at, opened when all `RUNS` runs reached it. */
function barrier(count: number): () => Promise<void> {
  let arrived = 0;
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return () => {
    arrived += 1;
    if (arrived === count) open();
    return opened;
  };
}

describe.skipIf(missingServices)('a worker whose checkpointer group-commits', () => {
  const queueName = unique('weft-test-group');
  const schema = unique('weft_worker_group').replaceAll('-', '_');
  const arrive = barrier(RUNS);
  let pool: pg.Pool;
  let checkpointer: PostgresCheckpointer;
  let worker: WeftWorker;
  let client: WeftClient;
  let commits = 0;

  const counter = (store: Checkpointer) =>
    new StateGraph(z.object({ n: z.number() }))
      .addNode('tick', async (state) => {
        if (state.n === 0) await arrive();
        return { n: state.n + 1 };
      })
      .addEdge(START, 'tick')
      .addConditionalEdges('tick', (state) => (state.n >= STEPS ? END : 'tick'), ['tick', END])
      .compile({ checkpointer: store, name: 'counter' });

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: pgUrl, max: RUNS + 4 });
    // Count the statements that store checkpoints and task writes: each is one commit.
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const [config] = args as [{ name?: string } | string];
      if (typeof config === 'object' && config.name?.endsWith('_group_put') === true) commits += 1;
      return query(...args);
    };
    checkpointer = new PostgresCheckpointer({ pool, schema, groupCommit: true });
    await checkpointer.setup();
    worker = await createWorker({
      graphs: { counter },
      connection: redisUrl,
      checkpointer,
      queueName,
      concurrency: RUNS,
      events: { events: 'none' },
    });
    client = createClient({ connection: redisUrl, queueName });
  });

  afterAll(async () => {
    await client?.close();
    await worker?.close();
    await deleteQueue({ connection: redisUrl, queueName });
    await checkpointer?.close();
    await pool?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool?.end();
  });

  it(`runs ${RUNS} concurrent runs with every step durable in fewer commits than checkpoints`, async () => {
    const handles = await Promise.all(Array.from({ length: RUNS }, () => client.submit('counter', { n: 0 })));
    const results = await Promise.all(handles.map((handle) => handle.result()));
    expect(results.map((result) => [result.status, result.output])).toEqual(
      Array.from({ length: RUNS }, () => ['done', { n: STEPS }]),
    );
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM "${schema}".weft_checkpoints`);
    const stored = (rows[0] as { n: number }).n;
    // Per run: the input checkpoint and one per step.
    expect(stored).toBe(RUNS * (STEPS + 1));
    // The runs leave the barrier together, so their next puts meet one commit in flight and share the next.
    expect(commits).toBeGreaterThan(0);
    expect(commits).toBeLessThan(stored);
    for (const handle of handles) {
      const latest = await checkpointer.get(handle.threadId);
      // Steps count from 0: the last of the run is step STEPS - 1.
      expect(latest?.checkpoint.step).toBe(STEPS - 1);
    }
  }, 60_000);
});
