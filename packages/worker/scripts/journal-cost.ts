// Cost of the run journal: `pnpm --filter @weft/worker journal-cost [--runs 100] [--steps 10] [--delay 0]
// [--concurrency 8] [--rounds 2]`. One worker process (test/fixtures/worker-main.ts); each round measures
// runs/s without and then with a PostgresRunJournal (client and worker), on fresh queues and schemas,
// and prints the ratio with/without of that round.
import { createClient, PostgresRunJournal } from '../src/index.js';
import { spawnWorker } from '../test/fixtures/spawn-worker.js';
import { machine, numberArgs, pgUrl, redisUrl, scratch } from './bench-support.js';

const args = numberArgs({ runs: 100, steps: 10, delay: 0, concurrency: 8, rounds: 2 });

async function measure(withJournal: boolean): Promise<number> {
  const space = await scratch(withJournal ? 'jon' : 'joff');
  const journal = withJournal
    ? new PostgresRunJournal({ connectionString: pgUrl, schema: space.schema })
    : undefined;
  await journal?.setup();
  const env = {
    WEFT_REDIS_URL: redisUrl,
    WEFT_PG_URL: pgUrl,
    WEFT_QUEUE: space.queueName,
    WEFT_PG_SCHEMA: space.schema,
    WEFT_CONCURRENCY: String(args.concurrency),
    WEFT_DELAY_MS: String(args.delay),
    WEFT_EVENTS: 'all',
    WEFT_JOURNAL: withJournal ? '1' : '0',
  };
  const worker = spawnWorker('w0', env);
  const client = createClient({
    connection: redisUrl,
    queueName: space.queueName,
    ...(journal ? { journal } : {}),
  });
  try {
    await worker.ready;
    const started = performance.now();
    const handles = await Promise.all(
      Array.from({ length: args.runs }, () => client.submit('counter', { count: 0, target: args.steps })),
    );
    const results = await Promise.all(handles.map((handle) => handle.result()));
    const seconds = (performance.now() - started) / 1000;
    if (results.some((result) => (result.output as { count: number }).count !== args.steps))
      throw new Error('a run ended with a wrong count');
    return args.runs / seconds;
  } finally {
    await worker.stop();
    await client.close();
    await journal?.close();
    await space.cleanup();
  }
}

console.log(
  `${args.runs} runs × ${args.steps} steps (node sleeps ${args.delay} ms), 1 worker process, concurrency ${args.concurrency}`,
);
for (let round = 1; round <= args.rounds; round++) {
  const without = await measure(false);
  const withJournal = await measure(true);
  console.log(
    `round ${round}: without journal ${without.toFixed(1)} runs/s, with ${withJournal.toFixed(1)} runs/s, ratio ${(withJournal / without).toFixed(2)} — ${machine()}`,
  );
}
