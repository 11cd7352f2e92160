// Runs graphs on N local worker processes through Redis (BullMQ) and PostgreSQL:
//   pnpm --filter @weft/examples workers -- --workers 3
// WEFT_REDIS_URL (default redis://127.0.0.1:6379), WEFT_PG_URL (default postgres://postgres@127.0.0.1:5432/test).
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PostgresCheckpointer } from '@weft/store-postgres';
import { createClient } from '@weft/worker';
import type { graphs } from './workers-graphs.js';

const redisUrl = process.env.WEFT_REDIS_URL ?? 'redis://127.0.0.1:6379';
const pgUrl = process.env.WEFT_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Options of {@link main}: how many workers, and where (tests use a queue and schema of their own). */
export interface WorkersExampleOptions {
  readonly workers?: number;
  readonly queueName?: string;
  readonly schema?: string;
  readonly print?: (line: string) => void;
}

function startWorker(env: NodeJS.ProcessEnv): { child: ChildProcess; ready: Promise<string> } {
  const entry = fileURLToPath(new URL('./workers-process.ts', import.meta.url));
  const child = spawn(process.execPath, ['--conditions=@weft/source', '--import', 'tsx', entry], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<string>((resolve, reject) => {
    // Read whole lines: a loaded machine may deliver "ready <id>" in more than one chunk.
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /^ready (\S+)$/m.exec(buffered);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`a worker exited (${code}) before it was ready`)));
  });
  return { child, ready };
}

/** Worker processes started by {@link deploy}, all ready to take runs. */
export interface Deployment {
  /** The workers' ids, as they reported them. */
  readonly workerIds: readonly string[];
  readonly queueName: string;
  /** Stops the workers (runs in flight go back to the queue) and waits until they exited. */
  stop(): Promise<void>;
}

/**
 * Prepares the checkpoint schema, starts the worker processes and waits until each says it is ready.
 * Nothing here waits for a time: a slow machine only makes the wait longer.
 */
export async function deploy(options: Omit<WorkersExampleOptions, 'print'> = {}): Promise<Deployment> {
  const queueName = options.queueName ?? 'weft-examples';
  const schema = options.schema ?? 'weft_examples';
  const setup = new PostgresCheckpointer({ connectionString: pgUrl, schema });
  await setup.setup(); // once per deployment, before the workers start
  await setup.close();
  const env = {
    ...process.env,
    WEFT_REDIS_URL: redisUrl,
    WEFT_PG_URL: pgUrl,
    WEFT_QUEUE: queueName,
    WEFT_PG_SCHEMA: schema,
  };
  const workers = Array.from({ length: options.workers ?? 3 }, () => startWorker(env));
  const stop = async (): Promise<void> => {
    await Promise.all(
      workers.map(({ child }) => {
        if (child.exitCode !== null || child.signalCode !== null) return undefined;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        return exited;
      }),
    );
  };
  try {
    return { workerIds: await Promise.all(workers.map((worker) => worker.ready)), queueName, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Submits runs to a deployment from this process, follows one, and answers an approval. */
export async function submitRuns(deployment: Deployment, print: (line: string) => void = console.log) {
  const client = createClient<typeof graphs>({ connection: redisUrl, queueName: deployment.queueName });
  try {
    const counts = await Promise.all(
      [3, 5, 8, 13].map((target) => client.submit('counter', { count: 0, target })),
    );
    let steps = 0;
    for await (const event of counts[3]!.events()) if (event.type === 'step-end') steps += 1;
    print(`followed ${steps} steps of run ${counts[3]!.runId} as they happened elsewhere`);
    const totals = (await Promise.all(counts.map((handle) => handle.result()))).map(
      (result) => result.output?.count,
    );
    print(`counters finished at ${totals.join(', ')}`);

    const order = await client.submit('approval', { order: 'A-17', log: [] });
    const paused = await order.result();
    print(`approval ${paused.status}: ${JSON.stringify(paused.interrupts[0]?.value)}`);
    const shipped = await (await client.resume('approval', order.threadId, true)).result();
    print(`after resume: ${JSON.stringify(shipped.output?.log)}`);
    const runs = await client.listRuns({ limit: 6 });
    for (const run of runs) print(`  ${run.graph.padEnd(8)} ${run.status.padEnd(11)} on ${run.workerId}`);
    return { totals, log: shipped.output?.log, statuses: runs.map((run) => run.status) };
  } finally {
    await client.close();
  }
}

/** Starts the workers, submits runs from this process, follows them, and stops the workers. */
export async function main(options: WorkersExampleOptions = {}) {
  const print = options.print ?? console.log;
  const deployment = await deploy(options);
  try {
    print(`workers ready: ${deployment.workerIds.join(', ')}`);
    return await submitRuns(deployment, print);
  } finally {
    await deployment.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((arg) => arg !== '--'),
    options: { workers: { type: 'string', default: '3' } },
  });
  await main({ workers: Number(values.workers) });
}
