// `pnpm --filter @weft/bench run profile [chain|loop|fanout|send|events|compile|small|checkpoint|sqlite|postgres|
// agent|agent-checkpoint|worker …] [--seconds N] [--top N]`
// Profiles Weft alone on the hot-path workloads and prints the top self-time functions inside the
// workspace packages (source-mapped file:line, share of all samples), plus where the rest of the time went.
// Raw profiles go to bench/results/<workload>.cpuprofile (git-ignored; open them in Chrome DevTools).
import { mkdirSync, writeFileSync } from 'node:fs';
import { MemoryCheckpointer } from '@weft/compose';
import { weftAgent } from '../agents/weft-agent.ts';
import { type StoreProbe, weftMemoryStore, weftPostgresStore, weftSqliteStore } from '../checkpointers.ts';
import { type Items, type Total, weftChain, weftFanout, weftLoop, weftSend } from '../graphs/weft-graphs.ts';
import { bucket, hotSpots, profile } from './cpu-profile.ts';
import { workerTarget } from './worker-target.ts';

/** One invoke of each profiled workload, with the check that keeps the profile honest. */
const TARGETS: Record<string, () => () => Promise<void>> = {
  chain: () => {
    const app = weftChain(100);
    return async () => expect((await app.invoke({ n: 0 })).n, 100);
  },
  loop: () => {
    const app = weftLoop(1000);
    return async () => expect((await app.invoke({ n: 0 })).n, 1000);
  },
  fanout: () => {
    const app = weftFanout(100);
    return async () => expect(((await app.invoke({})) as Items).count, 100);
  },
  send: () => {
    const app = weftSend(1000);
    return async () => expect(((await app.invoke({ total: 0 })) as Total).total, 332_833_500);
  },
  /** The full event stream of the 100-node chain, taken with one `for await` turn per event. */
  events: () => {
    const app = weftChain(100);
    return async () => {
      let ends = 0;
      for await (const part of app.stream({ n: 0 }, { mode: 'events' }))
        if ((part as { type?: string }).type === 'node-end') ends++;
      expect(ends, 100);
    };
  },
  /** Definition cost (the `compile` workload): build and compile a 5000-node chain. */
  compile: () => async () => {
    weftChain(5000);
  },
  /** Per-invoke fixed cost: a 3-node chain. */
  small: () => {
    const app = weftChain(3);
    return async () => expect((await app.invoke({ n: 0 })).n, 3);
  },
};

/** The 10-round ReAct turn of the `agent` workload, without or with a `MemoryCheckpointer`. */
function agentTarget(checkpointer?: MemoryCheckpointer): () => Promise<void> {
  const turn = weftAgent(10, checkpointer);
  return async () => expect((await turn()).messages, 22);
}

/** Stores opened by the targets, closed (temporary files and schemas removed) when profiling ends. */
const closers: Array<() => Promise<void>> = [];

/** The checkpointed 200-iteration loop of the `checkpoint` workload on one store. */
async function checkpointTarget(open: () => Promise<StoreProbe>): Promise<() => Promise<void>> {
  const probe = await open();
  if (!('store' in probe)) throw new Error(probe.pending);
  closers.push(() => probe.store.close());
  const app = weftLoop(200, { checkpointer: probe.store.checkpointer });
  let thread = 0;
  return async () => expect((await app.invoke({ n: 0 }, { threadId: `profile-${++thread}` })).n, 200);
}

/** Targets made asynchronously (a store to open), kept apart from TARGETS. */
const ASYNC_TARGETS: Record<string, () => Promise<() => Promise<void>>> = {
  checkpoint: () => checkpointTarget(weftMemoryStore),
  sqlite: () => checkpointTarget(weftSqliteStore),
  postgres: () => {
    const url = process.env.WEFT_PG_URL;
    if (!url) throw new Error('the postgres target needs WEFT_PG_URL');
    return checkpointTarget(() => weftPostgresStore(url));
  },
  agent: async () => agentTarget(),
  'agent-checkpoint': async () => agentTarget(new MemoryCheckpointer()),
  /** Rounds of 32 worker runs (20 durable steps each) through BullMQ and a group-committing PostgreSQL. */
  worker: async () => {
    const pgUrl = process.env.WEFT_PG_URL;
    const redisUrl = process.env.WEFT_REDIS_URL;
    if (!pgUrl || !redisUrl) throw new Error('the worker target needs WEFT_PG_URL and WEFT_REDIS_URL');
    const target = await workerTarget(pgUrl, redisUrl);
    closers.push(target.close);
    return target.invoke;
  },
};

function expect(actual: number, expected: number): void {
  if (actual !== expected) throw new Error(`expected ${expected}, got ${actual}`);
}

interface ProfileArguments {
  readonly names: readonly string[];
  readonly seconds: number;
  readonly top: number;
}

function parse(argv: readonly string[]): ProfileArguments {
  const names: string[] = [];
  let seconds = 5;
  let top = 10;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--seconds') seconds = Number(argv[++i]);
    else if (arg === '--top') top = Number(argv[++i]);
    else if (arg in TARGETS || arg in ASYNC_TARGETS) names.push(arg);
    else if (arg !== '--') {
      const known = [...Object.keys(TARGETS), ...Object.keys(ASYNC_TARGETS)].join(', ');
      throw new Error(`unknown argument "${arg}"; workloads: ${known}`);
    }
  }
  return { names: names.length > 0 ? names : Object.keys(TARGETS), seconds, top };
}

async function runFor(seconds: number, invoke: () => Promise<void>): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let count = 0;
  while (performance.now() < until) {
    await invoke();
    count++;
  }
  return count;
}

function report(name: string, invokes: number, spots: ReturnType<typeof hotSpots>, top: number): void {
  console.log(`\n## ${name} (${invokes} invokes)\n`);
  console.log('| self % | function | defined at | hottest line (share of the function) |');
  console.log('| -----: | -------- | ---------- | ------------------------------------ |');
  for (const spot of spots.filter((s) => s.location.startsWith('packages/')).slice(0, top)) {
    const hot = spot.hotLine ? `:${spot.hotLine.line} (${spot.hotLine.percentOfFunction.toFixed(0)}%)` : '';
    console.log(`| ${spot.selfPercent.toFixed(1)} | ${spot.functionName} | ${spot.location} | ${hot} |`);
  }
  const buckets = new Map<string, number>();
  for (const spot of spots)
    buckets.set(bucket(spot.location), (buckets.get(bucket(spot.location)) ?? 0) + spot.selfPercent);
  const summary = [...buckets]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([where, percent]) => `${where} ${percent.toFixed(1)}%`);
  console.log(`\nself time by where: ${summary.join(' · ')}`);
}

async function main(): Promise<void> {
  const args = parse(process.argv.slice(2));
  const directory = new URL('../../results/', import.meta.url);
  mkdirSync(directory, { recursive: true });
  for (const name of args.names) {
    const invoke = name in ASYNC_TARGETS ? await ASYNC_TARGETS[name]!() : TARGETS[name]!();
    await runFor(Math.min(2, args.seconds), invoke);
    let invokes = 0;
    const result = await profile(async () => {
      invokes = await runFor(args.seconds, invoke);
    });
    writeFileSync(new URL(`${name}.cpuprofile`, directory), JSON.stringify(result));
    report(name, invokes, hotSpots(result), args.top);
  }
  for (const close of closers) await close();
}

await main();
