// Throughput of N worker processes: `pnpm --filter @weft/worker throughput [--runs 200] [--steps 20]
// [--delay 5] [--concurrency 8] [--events 1] [--group 0]` (`--group 1`: each worker's checkpointer
// group-commits, ADR 026). For each of 1, 2 and 4 worker processes (child processes
// running test/fixtures/worker-main.ts), submits `runs` runs of a `steps`-step graph whose node sleeps
// `delay` ms, and reports runs/s from the first submit to the last result.
import { createClient } from '../src/index.js';
import { spawnWorker } from '../test/fixtures/spawn-worker.js';
import { machine, numberArgs, pgUrl, redisUrl, scratch } from './bench-support.js';

const args = numberArgs({ runs: 200, steps: 20, delay: 5, concurrency: 8, events: 1, group: 0 });

async function measure(workers: number): Promise<{ seconds: number; runsPerSecond: number }> {
  const space = await scratch(`tp${workers}`);
  const env = {
    WEFT_REDIS_URL: redisUrl,
    WEFT_PG_URL: pgUrl,
    WEFT_QUEUE: space.queueName,
    WEFT_PG_SCHEMA: space.schema,
    WEFT_CONCURRENCY: String(args.concurrency),
    WEFT_DELAY_MS: String(args.delay),
    WEFT_EVENTS: args.events ? 'all' : 'none',
    WEFT_GROUP_COMMIT: args.group ? '1' : '0',
  };
  const processes = Array.from({ length: workers }, (_, i) => spawnWorker(`w${i}`, env));
  const client = createClient({ connection: redisUrl, queueName: space.queueName });
  try {
    await Promise.all(processes.map((worker) => worker.ready));
    const started = performance.now();
    const handles = await Promise.all(
      Array.from({ length: args.runs }, () => client.submit('counter', { count: 0, target: args.steps })),
    );
    const results = await Promise.all(handles.map((handle) => handle.result()));
    const seconds = (performance.now() - started) / 1000;
    const wrong = results.filter((result) => (result.output as { count: number }).count !== args.steps);
    if (wrong.length > 0) throw new Error(`${wrong.length} runs ended with a wrong count`);
    return { seconds, runsPerSecond: args.runs / seconds };
  } finally {
    await Promise.all(processes.map((worker) => worker.stop()));
    await client.close();
    await space.cleanup();
  }
}

console.log(
  `${args.runs} runs × ${args.steps} steps (node sleeps ${args.delay} ms), concurrency ${args.concurrency} per process, events ${args.events ? 'on' : 'off'}, group commit ${args.group ? 'on' : 'off'}`,
);
console.log(`machine: ${machine()}`);
for (const workers of [1, 2, 4]) {
  const { seconds, runsPerSecond } = await measure(workers);
  console.log(
    `${workers} worker process${workers > 1 ? 'es' : ''}: ${runsPerSecond.toFixed(1)} runs/s (${(runsPerSecond * args.steps).toFixed(0)} steps/s, ${seconds.toFixed(1)} s) — ${machine()}`,
  );
}
