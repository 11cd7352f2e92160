// `pnpm --filter @weft/bench bench:server`: Weft's server and the reference (`@langchain/langgraph-api`
// through `langgraphjs dev`, in memory) on the same graph, driven by the same @langchain/langgraph-sdk
// client, one after the other on this machine. Bounded: every workload has a fixed size. Writes
// results/server.json and prints the rows with Weft/reference ratios.
import { writeFileSync } from 'node:fs';
import { Client } from '@langchain/langgraph-sdk';
import { type ServerProcess, startReference, startWeft, treeRssMiB } from './servers.ts';

const quick = process.argv.includes('--quick');
const sizes = {
  streamed: quick ? 10 : 30,
  runsPerLevel: quick ? 60 : 300,
  idleThreads: 1000,
  sseClients: quick ? 200 : 1000,
};
const input = { topic: 'bench' };

const clientOf = (server: ServerProcess) =>
  new Client({ apiUrl: server.url, apiKey: null, callerOptions: { maxRetries: 0, maxConcurrency: 1000 } });

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function streamed(client: Client): Promise<{ firstEventMs: number; totalMs: number }> {
  const first: number[] = [];
  const total: number[] = [];
  for (let i = 0; i < sizes.streamed; i++) {
    const thread = await client.threads.create();
    const start = performance.now();
    let firstAt = 0;
    for await (const part of client.runs.stream(thread.thread_id, 'bench', {
      input,
      streamMode: 'updates',
    })) {
      if (firstAt === 0 && part.event === 'updates') firstAt = performance.now();
    }
    first.push(firstAt - start);
    total.push(performance.now() - start);
  }
  return { firstEventMs: median(first), totalMs: median(total) };
}

async function runsPerSecond(client: Client, concurrency: number): Promise<number> {
  let next = 0;
  const start = performance.now();
  const worker = async () => {
    while (next < sizes.runsPerLevel) {
      next += 1;
      const thread = await client.threads.create();
      await client.runs.wait(thread.thread_id, 'bench', { input });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return sizes.runsPerLevel / ((performance.now() - start) / 1000);
}

async function idleThreadsRss(server: ServerProcess, client: Client): Promise<number> {
  const before = treeRssMiB(server.child.pid ?? 0);
  for (let i = 0; i < sizes.idleThreads; i += 50)
    await Promise.all(Array.from({ length: 50 }, () => client.threads.create({ metadata: { idle: true } })));
  return treeRssMiB(server.child.pid ?? 0) - before;
}

async function sseClients(
  client: Client,
): Promise<{ events: number; expected: number; failed: number; seconds: number }> {
  const start = performance.now();
  let failed = 0;
  const counts = await Promise.all(
    Array.from({ length: sizes.sseClients }, async () => {
      let count = 0;
      try {
        const thread = await client.threads.create();
        for await (const part of client.runs.stream(thread.thread_id, 'bench', {
          input,
          streamMode: 'updates',
        }))
          if (part.event === 'updates') count += 1;
      } catch (error) {
        failed += 1;
        if (failed === 1) process.stderr.write(`  first SSE client failure: ${(error as Error).message}\n`);
      }
      return count;
    }),
  );
  return {
    events: counts.reduce((a, b) => a + b, 0),
    expected: sizes.sseClients * 2,
    failed,
    seconds: (performance.now() - start) / 1000,
  };
}

async function measure(server: ServerProcess) {
  const client = clientOf(server);
  await client.runs.wait(null, 'bench', { input }); // warm up
  const phase = (name: string) => process.stderr.write(`  ${server.name}: ${name}\n`);
  phase('streamed runs');
  const stream = await streamed(client);
  phase('runs/s at 1, 10 and 100 clients');
  const rps = {
    c1: await runsPerSecond(client, 1),
    c10: await runsPerSecond(client, 10),
    c100: await runsPerSecond(client, 100),
  };
  phase('idle threads');
  const idle = await idleThreadsRss(server, client);
  phase(`${sizes.sseClients} SSE clients`);
  const sse = await sseClients(client);
  const rss = treeRssMiB(server.child.pid ?? 0);
  return { ...stream, ...rps, idleThreadsMiB: idle, sse, rssMiB: rss };
}

const results: Record<string, Awaited<ReturnType<typeof measure>>> = {};
for (const start of [startWeft, () => startReference(40_000 + (process.pid % 20_000))]) {
  const server = await start();
  process.stderr.write(`measuring ${server.name} at ${server.url}\n`);
  try {
    results[server.name] = await measure(server);
  } finally {
    await server.stop();
  }
}
const weft = results.weft!;
const reference = results.reference!;
const rows: Array<[string, number, number, 'lower' | 'higher']> = [
  ['first event of a streamed run (ms, median)', weft.firstEventMs, reference.firstEventMs, 'lower'],
  ['streamed run, total (ms, median)', weft.totalMs, reference.totalMs, 'lower'],
  ['runs/s, 1 client', weft.c1, reference.c1, 'higher'],
  ['runs/s, 10 clients', weft.c10, reference.c10, 'higher'],
  ['runs/s, 100 clients', weft.c100, reference.c100, 'higher'],
  [
    `RSS growth for ${sizes.idleThreads} idle threads (MiB)`,
    weft.idleThreadsMiB,
    reference.idleThreadsMiB,
    'lower',
  ],
  [`${sizes.sseClients} concurrent SSE clients, seconds`, weft.sse.seconds, reference.sse.seconds, 'lower'],
  ['RSS at the end (MiB)', weft.rssMiB, reference.rssMiB, 'lower'],
];
console.log('| workload | Weft | reference | Weft/reference |\n| --- | --: | --: | --: |');
for (const [name, w, r] of rows)
  console.log(`| ${name} | ${w.toFixed(1)} | ${r.toFixed(1)} | ${(w / r).toFixed(2)} |`);
console.log(
  `events delivered to ${sizes.sseClients} SSE clients: Weft ${weft.sse.events}/${weft.sse.expected}, reference ${reference.sse.events}/${reference.sse.expected}; clients failed: Weft ${weft.sse.failed}, reference ${reference.sse.failed}`,
);
writeFileSync(
  new URL('../../results/server.json', import.meta.url),
  `${JSON.stringify({ sizes, results }, null, 2)}\n`,
);
if (weft.sse.events !== weft.sse.expected) process.exitCode = 1;
