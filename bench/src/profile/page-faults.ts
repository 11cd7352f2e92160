// `pnpm --filter @weft/bench run faults [send|chain] [--sizes 100,1000,10000,100000] [--semi-space MB]
// [--samples N]`
// A diagnostic for the scaling rows, not a benchmark: per size, Weft and the floor, the median µs per
// unit (task or step) over N samples of back-to-back invokes (≥ 100,000 units each, no forced GC), the process's minor page
// faults per unit and the share of GC pauses — once with V8's default young generation and once in a
// child process with a semi-space of `--semi-space` MB (`--min/--max-semi-space-size`), so the live
// objects of a 100,000-task step fit in it. What it showed is in bench/README.md ("Why per-unit cost
// grows past 10,000"); the bench itself never runs with these flags.
import { execFileSync } from 'node:child_process';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { floorChain, floorSend } from '../graphs/floor.ts';
import { weftChain, weftSend } from '../graphs/weft-graphs.ts';
import { median } from '../harness.ts';

type Invoke = () => Promise<unknown>;

/** Per workload and engine: one invoke of a graph of `size` units. */
const GRAPHS: Record<string, Record<'weft' | 'floor', (size: number) => Invoke>> = {
  send: {
    weft: (size) => {
      const app = weftSend(size);
      return () => app.invoke({ total: 0 });
    },
    floor: (size) => {
      const run = floorSend(size);
      return () => run({ total: 0 });
    },
  },
  chain: {
    weft: (size) => {
      const app = weftChain(size);
      return () => app.invoke({ n: 0 });
    },
    floor: (size) => {
      const run = floorChain(size);
      return () => run({ n: 0 });
    },
  },
};

interface Options {
  readonly workload: string;
  readonly sizes: readonly number[];
  readonly semiSpaceMb: number;
  readonly samples: number;
  readonly child: boolean;
}

function parse(argv: readonly string[]): Options {
  let workload = 'send';
  let sizes = [100, 1000, 10_000, 100_000];
  let semiSpaceMb = 128;
  let samples = 5;
  let child = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--sizes') sizes = String(argv[++i]).split(',').map(Number);
    else if (arg === '--semi-space') semiSpaceMb = Number(argv[++i]);
    else if (arg === '--samples') samples = Number(argv[++i]);
    else if (arg === '--child') child = true;
    else if (arg in GRAPHS) workload = arg;
    else if (arg !== '--') throw new Error(`unknown argument "${arg}"; workloads: ${Object.keys(GRAPHS)}`);
  }
  return { workload, sizes, semiSpaceMb, samples, child };
}

let gcMs = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
});
observer.observe({ entryTypes: ['gc'] });

/** GC pause milliseconds since the last call (entries arrive a tick late). */
async function takeGcMs(): Promise<number> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  for (const entry of observer.takeRecords()) gcMs += entry.duration;
  const taken = gcMs;
  gcMs = 0;
  return taken;
}

/** One line of the result: an engine at a size, in this process's heap configuration. */
interface Measured {
  readonly size: number;
  readonly engine: string;
  readonly microsPerUnit: number;
  readonly faultsPerUnit: number;
  readonly gcShare: number;
}

/** Units per sample at least: small graphs repeat their invoke so a sample is not a few microseconds. */
const MIN_UNITS = 100_000;

/**
 * Warms up for `warmMs` (the JIT, and every page of the young generation touched once), then takes
 * `samples` samples of back-to-back invokes with no forced GC; medians per unit.
 */
async function measure(
  invoke: Invoke,
  size: number,
  options: { readonly samples: number; readonly warmMs: number },
): Promise<Omit<Measured, 'engine'>> {
  const { samples } = options;
  const warm = performance.now() + options.warmMs;
  while (performance.now() < warm) await invoke();
  const repeat = Math.max(1, Math.ceil(MIN_UNITS / size));
  const micros: number[] = [];
  const faults: number[] = [];
  let wall = 0;
  await takeGcMs();
  for (let i = 0; i < samples; i++) {
    const before = process.resourceUsage().minorPageFault;
    const start = performance.now();
    for (let r = 0; r < repeat; r++) await invoke();
    const ms = performance.now() - start;
    wall += ms;
    micros.push((ms * 1000) / (size * repeat));
    faults.push((process.resourceUsage().minorPageFault - before) / (size * repeat));
  }
  const gc = await takeGcMs();
  return { size, microsPerUnit: median(micros), faultsPerUnit: median(faults), gcShare: gc / wall };
}

async function child(options: Options): Promise<void> {
  const results: Measured[] = [];
  for (const size of options.sizes) {
    for (const engine of ['weft', 'floor'] as const) {
      const invoke = (GRAPHS[options.workload] as (typeof GRAPHS)['send'])[engine](size);
      // The first measurement also warms the process: a 128 MB semi-space is 256 MB of pages to touch.
      const warmMs = results.length === 0 ? 4000 : 1000;
      results.push({
        engine,
        ...(await measure(invoke, size, { samples: Math.max(options.samples, 1), warmMs })),
      });
    }
  }
  process.stdout.write(JSON.stringify(results));
}

/** Runs the measurement in a child node with `flags` (the same loaders) and returns its lines. */
function runChild(flags: readonly string[], argv: readonly string[]): Measured[] {
  const script = fileURLToPath(import.meta.url);
  const args = [...process.execArgv, ...flags, script, ...argv, '--child'];
  return JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' })) as Measured[];
}

function main(): void {
  const argv = process.argv.slice(2);
  const options = parse(argv);
  const semi = `--max-semi-space-size=${options.semiSpaceMb}`;
  const configs = [
    { label: 'default young generation', flags: [] },
    {
      label: `semi-space ${options.semiSpaceMb} MB`,
      flags: [semi, `--min-semi-space-size=${options.semiSpaceMb}`],
    },
  ];
  const unit = options.workload === 'send' ? 'task' : 'step';
  console.log(
    `| ${options.workload} | heap | Weft µs/${unit} | floor µs/${unit} | Weft/floor | PF/${unit} W · floor | GC W · floor |`,
  );
  console.log('| ---: | --- | ---: | ---: | ---: | --- | --- |');
  for (const config of configs) {
    const lines = runChild(config.flags, argv);
    for (const size of options.sizes) {
      const weft = lines.find((l) => l.size === size && l.engine === 'weft') as Measured;
      const floor = lines.find((l) => l.size === size && l.engine === 'floor') as Measured;
      const pct = (share: number) => `${(share * 100).toFixed(0)}%`;
      console.log(
        `| ${size} | ${config.label} | ${weft.microsPerUnit.toFixed(2)} | ${floor.microsPerUnit.toFixed(2)} | ` +
          `${(weft.microsPerUnit / floor.microsPerUnit).toFixed(2)}× | ${weft.faultsPerUnit.toFixed(4)} · ` +
          `${floor.faultsPerUnit.toFixed(4)} | ${pct(weft.gcShare)} · ${pct(floor.gcShare)} |`,
      );
    }
  }
}

const options = parse(process.argv.slice(2));
if (options.child) await child(options);
else main();
