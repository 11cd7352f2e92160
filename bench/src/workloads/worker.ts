// Worker throughput (needs WEFT_REDIS_URL and WEFT_PG_URL; Weft only): runs of a 20-step counter loop,
// every step checkpointed to PostgreSQL, submitted through a BullMQ queue; rows in runs/s. First one
// in-process worker with concurrency 1, 2, 4 and 16 and one commit per write (the plain checkpointer); then
// 1, 2 and 4 workers (each with its own group-committing checkpointer and pool, all in this process)
// of concurrency 16, where a commit stores the steps of every run that finished one meanwhile (ADR 026).
// The floor rows are bare `pg` insert loops (one autocommitted insert per commit) on 1, 4 and 16
// connections, in commits/s: what the server takes. The notes give Weft's durable steps/s and its
// commits/s of checkpoints and task writes (counted on the pools) next to them, and the CPU a run costs
// this process, its PostgreSQL backends and redis-server (from /proc; 0 when the servers run elsewhere).
import { PostgresCheckpointer } from '@weft/store-postgres';
import { createClient, createWorker, deleteQueue } from '@weft/worker';
import pg from 'pg';
import { WORKER_STEPS, workerCounter } from '../graphs/worker-counter.ts';
import { postgresCpuMs, redisCpuMs } from '../server-cpu.ts';
import type { Row } from '../table.ts';
import { type BenchContext, measures, pick, type Workload } from '../workload.ts';

const STEPS = WORKER_STEPS;

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

/** How a worker row runs: `workers` workers of `concurrency` each, with or without group commit. */
interface WorkerSetup {
  readonly workers: number;
  readonly concurrency: number;
  readonly groupCommit: boolean;
}

/**
 * A pool that counts the statements that store checkpoints and task writes (each one commit). Its
 * connections carry `applicationName` and stay open, so their backends' CPU can be read at the end.
 */
function countingPool(
  pgUrl: string,
  concurrency: number,
  applicationName: string,
): { pool: pg.Pool; commits: () => number } {
  const pool = new pg.Pool({
    connectionString: pgUrl,
    max: Math.max(10, concurrency + 2),
    application_name: applicationName,
    idleTimeoutMillis: 0,
  });
  pool.on('error', () => undefined);
  let commits = 0;
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const [config] = args as [{ name?: string } | string];
    if (typeof config === 'object' && /_(group_put|put|put_writes)$/.test(config.name ?? '')) commits += 1;
    return query(...args);
  };
  return { pool, commits: () => commits };
}

/** Runs `runs` runs through the workers of `setup`; resolves with runs and checkpoint commits per second. */
async function workerRate(pgUrl: string, redisUrl: string, setup: WorkerSetup, runs: number) {
  const tag = `${process.pid.toString(36)}${Date.now().toString(36)}_${setup.workers}_${setup.concurrency}`;
  const schema = `weft_bench_worker_${tag}`;
  const queueName = `weft-bench-${tag}`;
  const applicationName = `weft-bench-${tag}`;
  const pools = Array.from({ length: setup.workers }, () =>
    countingPool(pgUrl, setup.concurrency, applicationName),
  );
  const checkpointers = pools.map(
    ({ pool }) => new PostgresCheckpointer({ pool, schema, groupCommit: setup.groupCommit }),
  );
  await checkpointers[0]?.setup();
  const workers = await Promise.all(
    checkpointers.map((checkpointer) =>
      createWorker({
        graphs: { counter: workerCounter },
        connection: redisUrl,
        checkpointer,
        queueName,
        concurrency: setup.concurrency,
      }),
    ),
  );
  const client = createClient({ connection: redisUrl, queueName });
  const commits = (): number => pools.reduce((sum, { commits }) => sum + commits(), 0);
  try {
    const before = commits();
    const backendsBefore = await postgresCpuMs(pools[0]!.pool, applicationName);
    const redisBefore = redisCpuMs();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const handles = await Promise.all(Array.from({ length: runs }, () => client.submit('counter', { n: 0 })));
    const results = await Promise.all(handles.map((handle) => handle.result()));
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = {
      process: (cpu.user + cpu.system) / 1000 / runs,
      postgres: ((await postgresCpuMs(pools[0]!.pool, applicationName)) - backendsBefore) / runs,
      redis: (redisCpuMs() - redisBefore) / runs,
    };
    const wrong = results.filter(
      (result) => result.status !== 'done' || (result.output as { n: number }).n !== STEPS,
    );
    if (wrong.length > 0)
      throw new Error(`${wrong.length} of ${runs} worker runs did not end with n = ${STEPS}`);
    const stored = await pools[0]?.pool.query(`SELECT count(*)::int AS n FROM "${schema}".weft_checkpoints`);
    const checkpoints = (stored?.rows[0] as { n: number } | undefined)?.n ?? 0;
    if (checkpoints < runs * STEPS)
      throw new Error(`${checkpoints} checkpoints stored for ${runs} runs of ${STEPS} steps`);
    return { runsPerSecond: runs / seconds, commitsPerSecond: (commits() - before) / seconds, cpuMs };
  } finally {
    await client.close();
    await Promise.all(workers.map((worker) => worker.close()));
    await deleteQueue({ connection: redisUrl, queueName });
    await Promise.all(checkpointers.map((checkpointer) => checkpointer.close()));
    await pools[0]?.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await Promise.all(pools.map(({ pool }) => pool.end()));
  }
}

/** CPU per run: the bench's process (workers and client), its PostgreSQL backends, redis-server. */
function cpuNote(cpuMs: { process: number; postgres: number; redis: number }): string {
  const total = cpuMs.process + cpuMs.postgres + cpuMs.redis;
  return `${cpuMs.process.toFixed(1)} ms this process + ${cpuMs.postgres.toFixed(1)} ms its PostgreSQL backends + ${cpuMs.redis.toFixed(1)} ms redis-server (all its clients) = ${total.toFixed(1)} ms, ${(2000 / total).toFixed(0)} runs/s if they had both cores alone`;
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

/**
 * The rows: one plain worker of growing concurrency (16 too: PostgreSQL merges the WAL flushes of
 * concurrent commits by itself), then 1, 2 and 4 group-committing workers.
 */
const SETUPS: readonly WorkerSetup[] = [
  { workers: 1, concurrency: 1, groupCommit: false },
  { workers: 1, concurrency: 2, groupCommit: false },
  { workers: 1, concurrency: 4, groupCommit: false },
  { workers: 1, concurrency: 16, groupCommit: false },
  { workers: 1, concurrency: 16, groupCommit: true },
  { workers: 2, concurrency: 16, groupCommit: true },
  { workers: 4, concurrency: 16, groupCommit: true },
];

function setupLabel({ workers, concurrency, groupCommit }: WorkerSetup): string {
  const who =
    workers === 1 ? `concurrency ${concurrency}` : `${workers} workers × concurrency ${concurrency}`;
  return `${who}${groupCommit ? ', group commit' : ''}`;
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
    const rows: Row[] = [];
    await context.turn();
    for (const connections of [1, 4, 16]) {
      const rate = await pgRate(pgUrl, connections, pick(context, 3000, 300));
      rows.push({
        ...row(`worker floor: bare pg insert, ${connections} connection(s)`, 'commits/s', null),
        floor: rate,
      });
    }
    for (const setup of SETUPS) {
      await context.turn();
      // Enough runs for a few seconds at each row's pace.
      const runs = pick(
        context,
        setup.groupCommit ? 400 * setup.workers : Math.min(200, 50 * setup.concurrency),
        20,
      );
      const label = setupLabel(setup);
      context.log(`  worker: ${runs} runs of ${STEPS} steps, ${label}`);
      try {
        const rate = await workerRate(pgUrl, redisUrl, setup, runs);
        const steps = rate.runsPerSecond * STEPS;
        rows.push(
          row(`worker: ${runs} runs × ${STEPS} durable steps, ${label}`, 'runs/s', rate.runsPerSecond, [
            `worker ${label}: ${steps.toFixed(0)} durable steps/s in ${rate.commitsPerSecond.toFixed(0)} commits/s of checkpoints and task writes (${(steps / rate.commitsPerSecond).toFixed(2)} steps a commit; compare the bare pg insert rows, commits/s); CPU a run: ${cpuNote(rate.cpuMs)}`,
          ]),
        );
      } catch (error) {
        rows.push({
          ...row(`worker: ${label}`, 'runs/s', 'FAIL'),
          failures: [`worker [${label}]: ${error instanceof Error ? error.message : error}`],
        });
      }
    }
    return rows;
  },
};
