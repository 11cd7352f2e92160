// `pnpm --filter @weft/bench run profile [chain|loop|fanout|send|small|checkpoint …] [--seconds N] [--top N]`
// Profiles Weft alone on the hot-path workloads and prints the top self-time functions inside
// packages/compose (source-mapped file:line, share of all samples), plus where the rest of the time went.
// Raw profiles go to bench/results/<workload>.cpuprofile (git-ignored; open them in Chrome DevTools).
import { mkdirSync, writeFileSync } from 'node:fs';
import { weftMemoryStore } from '../checkpointers.ts';
import { type Items, type Total, weftChain, weftFanout, weftLoop, weftSend } from '../graphs/weft-graphs.ts';
import { bucket, hotSpots, profile } from './cpu-profile.ts';

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
  /** Per-invoke fixed cost: a 3-node chain. */
  small: () => {
    const app = weftChain(3);
    return async () => expect((await app.invoke({ n: 0 })).n, 3);
  },
};

/** Targets that need a checkpointer (made asynchronously, so kept apart from TARGETS). */
async function checkpointTarget(): Promise<() => Promise<void>> {
  const probe = await weftMemoryStore();
  if (!('store' in probe)) throw new Error(probe.pending);
  const app = weftLoop(200, { checkpointer: probe.store.checkpointer });
  let thread = 0;
  return async () => expect((await app.invoke({ n: 0 }, { threadId: `profile-${++thread}` })).n, 200);
}

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
    else if (arg in TARGETS || arg === 'checkpoint') names.push(arg);
    else if (arg !== '--')
      throw new Error(`unknown argument "${arg}"; workloads: ${Object.keys(TARGETS).join(', ')}`);
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
  for (const spot of spots.filter((s) => s.location.startsWith('packages/compose/')).slice(0, top)) {
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
    const invoke = name === 'checkpoint' ? await checkpointTarget() : TARGETS[name]!();
    await runFor(Math.min(2, args.seconds), invoke);
    let invokes = 0;
    const result = await profile(async () => {
      invokes = await runFor(args.seconds, invoke);
    });
    writeFileSync(new URL(`${name}.cpuprofile`, directory), JSON.stringify(result));
    report(name, invokes, hotSpots(result), args.top);
  }
}

await main();
