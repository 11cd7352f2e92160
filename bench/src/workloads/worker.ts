// Worker throughput (needs WEFT_REDIS_URL and WEFT_PG_URL; Weft only): runs of a 20-step counter loop,
// every step checkpointed to PostgreSQL, submitted through a BullMQ queue and run by one in-process
// worker with concurrency 1, 2 and 4; rows in runs/s. The floor rows are bare `pg` insert loops (one
// autocommitted insert per commit) on 1 and 4 connections, in commits/s: what the server takes. The
// notes give Weft's durable steps/s next to them.
import { type Checkpointer, END, START, StateGraph } from '@weft/compose';
import { PostgresCheckpointer } from '@weft/store-postgres';
import { createClient, createWorker, deleteQueue } from '@weft/worker';
import pg from 'pg';
import { z } from 'zod';
import type { Row } from '../table.ts';
import { type BenchContext, measures, pick, type Workload } from '../workload.ts';

const STEPS = 20;

function counter(checkpointer: Checkpointer) {
  return new StateGraph(z.object({ n: z.number() }))
    .addNode('tick', (state) => ({ n: state.n + 1 }))
    .addEdge(START, 'tick')
    .addConditionalEdges('tick', (state) => (state.n >= STEPS ? END : 'tick'), ['tick', END])
    .compile({ checkpointer, name: 'counter', maxSteps: 1000 });
}

function row(workload: string, unit: string, value: number | string | null, notes: string[] = []): Row {
  return {
    workload,
    unit,
    weft: value,
    langgraph: null,
    floor: null,
    heap: '',
    ratios: false,
    failures: [],
    notes,
  };
}

/** Runs `runs` runs through a worker of `concurrency`; resolves with runs per second. */
async function workerRate(pgUrl: string, redisUrl: string, concurrency: number, runs: number) {
  const tag = `${process.pid.toString(36)}${Date.now().toString(36)}_${concurrency}`;
  const schema = `weft_bench_worker_${tag}`;
  const queueName = `weft-bench-${tag}`;
  const checkpointer = new PostgresCheckpointer({ connectionString: pgUrl, schema });
  await checkpointer.setup();
  const worker = await createWorker({
    graphs: { counter },
    connection: redisUrl,
    checkpointer,
    queueName,
    concurrency,
  });
  const client = createClient({ connection: redisUrl, queueName });
  try {
    const started = performance.now();
    const handles = await Promise.all(Array.from({ length: runs }, () => client.submit('counter', { n: 0 })));
    const results = await Promise.all(handles.map((handle) => handle.result()));
    const seconds = (performance.now() - started) / 1000;
    const wrong = results.filter(
      (result) => result.status !== 'done' || (result.output as { n: number }).n !== STEPS,
    );
    if (wrong.length > 0)
      throw new Error(`${wrong.length} of ${runs} worker runs did not end with n = ${STEPS}`);
    return runs / seconds;
  } finally {
    await client.close();
    await worker.close();
    await deleteQueue({ connection: redisUrl, queueName });
    await checkpointer.close();
    const pool = new pg.Pool({ connectionString: pgUrl });
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  }
}

/** Bare autocommitted inserts of a small JSON body on `connections` clients for `ms`; commits per second. */
async function pgRate(pgUrl: string, connections: number, ms: number): Promise<number> {
  const schema = `weft_bench_pgfloor_${process.pid.toString(36)}${Date.now().toString(36)}`;
  const clients = Array.from({ length: connections }, () => new pg.Client({ connectionString: pgUrl }));
  await Promise.all(clients.map((client) => client.connect()));
  const [first] = clients as [pg.Client];
  await first.query(`CREATE SCHEMA "${schema}"`);
  await first.query(`CREATE TABLE "${schema}".writes (id BIGSERIAL PRIMARY KEY, body JSONB NOT NULL)`);
  const text = `INSERT INTO "${schema}".writes (body) VALUES ($1)`;
  let commits = 0;
  const until = performance.now() + ms;
  const started = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < until) {
        await client.query({ name: 'floor-insert', text, values: [JSON.stringify({ step: commits, n: 1 })] });
        commits++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await first.query(`DROP SCHEMA "${schema}" CASCADE`);
  await Promise.all(clients.map((client) => client.end()));
  return commits / seconds;
}

export const workerWorkload: Workload = {
  name: 'worker',
  async run(context: BenchContext) {
    if (!measures(context, 'weft')) return [];
    const pgUrl = process.env.WEFT_PG_URL;
    const redisUrl = process.env.WEFT_REDIS_URL;
    if (!pgUrl || !redisUrl) {
      context.log('  worker: WEFT_PG_URL or WEFT_REDIS_URL is not set; worker rows skipped');
      return [];
    }
    const runs = pick(context, 200, 20);
    const rows: Row[] = [];
    await context.turn();
    for (const connections of [1, 4]) {
      const rate = await pgRate(pgUrl, connections, pick(context, 3000, 300));
      rows.push({
        ...row(`worker floor: bare pg insert, ${connections} connection(s)`, 'commits/s', null),
        floor: rate,
      });
    }
    for (const concurrency of [1, 2, 4]) {
      await context.turn();
      context.log(`  worker: ${runs} runs of ${STEPS} steps, concurrency ${concurrency}`);
      try {
        const rate = await workerRate(pgUrl, redisUrl, concurrency, runs);
        rows.push(
          row(`worker: ${runs} runs × ${STEPS} durable steps, concurrency ${concurrency}`, 'runs/s', rate, [
            `worker concurrency ${concurrency}: ${(rate * STEPS).toFixed(0)} durable steps/s (compare the bare pg insert rows, commits/s)`,
          ]),
        );
      } catch (error) {
        rows.push({
          ...row(`worker: concurrency ${concurrency}`, 'runs/s', 'FAIL'),
          failures: [
            `worker [concurrency ${concurrency}]: ${error instanceof Error ? error.message : error}`,
          ],
        });
      }
    }
    return rows;
  },
};
