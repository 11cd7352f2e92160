// Job granularity, measured (see docs/adr/001-worker-job-granularity.md): the same runs executed as one
// job per run (this package) and as one job per superstep (a prototype: each job runs
// `run(null, { maxSteps: 1 })` and queues the next). One process, same concurrency, events off.
// `node --conditions=@weft/source --import tsx scripts/granularity.ts [--runs 60] [--steps 20]`
import { type Checkpointer, StepLimitError } from '@weft/compose';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { createClient, createWorker } from '../src/index.js';
import { counterGraph } from '../test/fixtures/graphs.js';
import { machine, numberArgs, redisUrl, scratch } from './bench-support.js';

const args = numberArgs({ runs: 60, steps: 20, delay: 5, concurrency: 8 });

function graphFor(checkpointer: Checkpointer, redis: Redis, queueName: string) {
  return counterGraph(checkpointer, { redis, prefix: `weft:${queueName}:test:`, workerId: 'w' }, args.delay);
}

/** Runs/s and this process's CPU milliseconds per run (less sensitive to other load than runs/s). */
interface Figures {
  readonly runsPerSecond: number;
  readonly cpuMsPerRun: number;
}

async function timed(body: () => Promise<void>): Promise<Figures> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await body();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { runsPerSecond: args.runs / seconds, cpuMsPerRun: (used.user + used.system) / 1000 / args.runs };
}

async function perRun(): Promise<Figures> {
  const space = await scratch('perrun');
  const redis = new Redis(redisUrl);
  const worker = await createWorker({
    graphs: { counter: (checkpointer) => graphFor(checkpointer, redis, space.queueName) },
    connection: redisUrl,
    checkpointer: space.checkpointer,
    queueName: space.queueName,
    concurrency: args.concurrency,
    events: { events: 'none' },
  });
  const client = createClient({ connection: redisUrl, queueName: space.queueName });
  const figures = await timed(async () => {
    const handles = await Promise.all(
      Array.from({ length: args.runs }, () => client.submit('counter', { count: 0, target: args.steps })),
    );
    await Promise.all(handles.map((handle) => handle.result()));
  });
  await client.close();
  await worker.close();
  redis.disconnect();
  await space.cleanup();
  return figures;
}

async function perStep(): Promise<Figures> {
  const space = await scratch('perstep');
  const redis = new Redis(redisUrl);
  const graph = graphFor(space.checkpointer, redis, space.queueName);
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(space.queueName, { connection });
  const finished = new Map<string, () => void>();
  let next = 0;
  const worker = new Worker<{ threadId: string; first: boolean }>(
    space.queueName,
    async (job) => {
      const { threadId, first } = job.data;
      try {
        const input = first ? { count: 0, target: args.steps } : null;
        await graph.run(input, { threadId, maxSteps: 1 });
        finished.get(threadId)?.();
      } catch (error) {
        if (!(error instanceof StepLimitError)) throw error;
        await queue.add(
          'step',
          { threadId, first: false },
          { jobId: `${threadId}-${++next}`, removeOnComplete: true },
        );
      }
    },
    { connection, concurrency: args.concurrency },
  );
  const figures = await timed(async () => {
    await Promise.all(
      Array.from({ length: args.runs }, async (_, i) => {
        const threadId = `t${i}`;
        const done = new Promise<void>((resolve) => finished.set(threadId, resolve));
        await queue.add(
          'step',
          { threadId, first: true },
          { jobId: `${threadId}-0`, removeOnComplete: true },
        );
        await done;
      }),
    );
  });
  await worker.close();
  await queue.close();
  connection.disconnect();
  redis.disconnect();
  await space.cleanup();
  return figures;
}

const show = (figures: Figures): string =>
  `${figures.runsPerSecond.toFixed(1)} runs/s, ${figures.cpuMsPerRun.toFixed(1)} CPU ms/run`;

console.log(
  `${args.runs} runs × ${args.steps} steps, node ${args.delay} ms, concurrency ${args.concurrency}, one process`,
);
console.log(`machine: ${machine()}`);
for (let round = 1; round <= 2; round++) {
  const run = await perRun();
  const step = await perStep();
  console.log(`round ${round}: one job per run ${show(run)}; one job per step ${show(step)} — ${machine()}`);
}
