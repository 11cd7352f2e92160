// The `worker` profile target: one in-process worker (group-committing PostgresCheckpointer, concurrency
// 16) and a client; one invoke submits a round of 32 runs of a 20-step counter and waits for them all.
// Prints this process's CPU time per run and per durable step (user + system, `process.cpuUsage`) when
// profiling ends, next to runs/s: what a run costs Weft's own process, whatever PostgreSQL and Redis cost.
import { PostgresCheckpointer } from '@weft/store-postgres';
import { createClient, createWorker, deleteQueue } from '@weft/worker';
import pg from 'pg';
import { WORKER_STEPS, workerCounter } from '../graphs/worker-counter.ts';
import { postgresCpuMs, redisCpuMs } from '../server-cpu.ts';

const STEPS = WORKER_STEPS;
const ROUND = 32;
/** Runs kept submitted ahead: an invoke submits a round and waits for the round before it. */
const AHEAD = 2;

/** A started worker target: `invoke` runs one round, `close` removes its queue and schema. */
export interface WorkerTarget {
  readonly invoke: () => Promise<void>;
  readonly close: () => Promise<void>;
}

/**
 * Starts the worker target on `pgUrl` and `redisUrl` (a schema and queue of its own).
 *
 * @throws when a round ends with a run that is not done with `n = 20`.
 */
export async function workerTarget(pgUrl: string, redisUrl: string): Promise<WorkerTarget> {
  const tag = `${process.pid.toString(36)}${Date.now().toString(36)}`;
  const schema = `weft_profile_worker_${tag}`;
  const queueName = `weft-profile-worker-${tag}`;
  const applicationName = `weft-profile-${tag}`;
  // Idle connections are kept, so their backends' CPU can be read at the end.
  const pool = new pg.Pool({
    connectionString: pgUrl,
    max: 18,
    idleTimeoutMillis: 0,
    application_name: applicationName,
  });
  const statements = timedStatements(pool);
  const checkpointer = new PostgresCheckpointer({ pool, schema, groupCommit: true });
  await checkpointer.setup();
  const worker = await createWorker({
    graphs: { counter: workerCounter },
    connection: redisUrl,
    checkpointer,
    queueName,
    concurrency: 16,
  });
  const client = createClient({ connection: redisUrl, queueName });
  let runs = 0;
  const rounds: Promise<void>[] = [];
  const redisStart = redisCpuMs();
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  return {
    async invoke() {
      const round = async (): Promise<void> => {
        const handles = await Promise.all(
          Array.from({ length: ROUND }, () => client.submit('counter', { n: 0 })),
        );
        for (const result of await Promise.all(handles.map((handle) => handle.result())))
          if (result.status !== 'done' || (result.output as { n: number }).n !== STEPS)
            throw new Error(`a worker run ended ${result.status} with ${JSON.stringify(result.output)}`);
        runs += ROUND;
      };
      while (rounds.length < AHEAD) rounds.push(round());
      await rounds.shift();
    },
    async close() {
      await Promise.all(rounds.splice(0));
      const cpu = process.cpuUsage(cpuStart);
      const redisMs = redisCpuMs() - redisStart;
      const postgresMs = await postgresCpuMs(pool, applicationName);
      const seconds = (performance.now() - started) / 1000;
      const cpuMs = (cpu.user + cpu.system) / 1000;
      console.log(
        `\nworker: ${runs} runs in ${seconds.toFixed(1)} s (${(runs / seconds).toFixed(1)} runs/s); this process spent ${(cpuMs / runs).toFixed(1)} ms CPU a run, ${((1000 * cpuMs) / (runs * STEPS)).toFixed(0)} µs a durable step (user ${(cpu.user / 1000 / runs).toFixed(1)} + system ${(cpu.system / 1000 / runs).toFixed(1)} ms a run)`,
      );
      console.log(
        `servers: PostgreSQL backends of this worker ${(postgresMs / runs).toFixed(1)} ms CPU a run; redis-server ${(redisMs / runs).toFixed(1)} ms a run (all its clients, so at most)`,
      );
      console.log(statements.report(runs));
      await client.close();
      await worker.close();
      await deleteQueue({ connection: redisUrl, queueName });
      await checkpointer.close();
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    },
  };
}

/** Counts the pool's statements by name (or text) with their summed latency, for the report. */
function timedStatements(pool: pg.Pool): { report: (runs: number) => string } {
  const tally = new Map<string, { count: number; ms: number }>();
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = async (...args: unknown[]) => {
    const [config] = args as [{ name?: string; text?: string } | string];
    const key = typeof config === 'string' ? config : (config.name ?? config.text ?? '?');
    const started = performance.now();
    try {
      return await query(...args);
    } finally {
      const entry = tally.get(key.slice(0, 60)) ?? { count: 0, ms: 0 };
      entry.count += 1;
      entry.ms += performance.now() - started;
      tally.set(key.slice(0, 60), entry);
    }
  };
  return {
    report: (runs) =>
      [...tally]
        .sort((a, b) => b[1].count - a[1].count)
        .map(
          ([key, { count, ms }]) =>
            `  ${(count / runs).toFixed(2)} a run, ${(ms / count).toFixed(1)} ms each: ${key.replace(/\s+/g, ' ')}`,
        )
        .join('\n'),
  };
}
