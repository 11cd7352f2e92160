// Cold start: a fresh `node` process per sample that imports the engine and exits.
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { compare, type Engine, median } from '../harness.ts';
import { engineLabel, formatBytes, measurementRow } from '../table.ts';
import { type BenchContext, pick, type Workload } from '../workload.ts';

const BENCH_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** Every child runs with the same flags (Weft resolves to TypeScript source, which needs tsx). */
const NODE_FLAGS = ['--conditions=@weft/source', '--import', 'tsx', '--input-type=module'];

const SCRIPTS: Record<Engine, string> = {
  weft: "const m = await import('@weft/compose'); if (typeof m.StateGraph !== 'function') process.exit(2);",
  langgraph:
    "const m = await import('@langchain/langgraph'); if (typeof m.StateGraph !== 'function') process.exit(2);",
  floor: '',
};

/** The child prints its used heap after the import, so the heap column shows what loading costs. */
const REPORT = "console.log('ok', process.memoryUsage().heapUsed);";

interface ChildResult {
  readonly output: string;
}

function spawnOnce(engine: Engine): ChildResult {
  const output = execFileSync(process.execPath, [...NODE_FLAGS, '-e', `${SCRIPTS[engine]} ${REPORT}`], {
    cwd: BENCH_DIR,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  return { output };
}

export const coldImportWorkload: Workload = {
  name: 'cold-import',
  async run(context: BenchContext) {
    const samples = pick(context, 7, 2);
    const warmup = pick(context, 1, 0);
    context.log(`  cold import (${samples} spawns per engine)`);
    const heaps: Record<Engine, number[]> = { weft: [], langgraph: [], floor: [] };
    const contender = (engine: Engine) => ({
      engine,
      run: async () => spawnOnce(engine),
      check: (result: ChildResult) => {
        const [word, heap] = result.output.trim().split(/\s+/);
        if (word !== 'ok') throw new Error(`the child printed "${result.output.trim()}"`);
        heaps[engine].push(Number(heap));
      },
      once: async () => undefined,
    });
    const started = performance.now();
    const measurements = await compare((['weft', 'langgraph', 'floor'] as const).map(contender), {
      warmup,
      reps: samples,
    });
    context.log(`  ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const row = measurementRow(
      {
        workload: 'cold import: fresh node process',
        unit: 'ms',
        notes: ['floor = the same node + tsx start-up with an empty script; heap = heap used after import'],
      },
      measurements,
    );
    const heap = (['weft', 'langgraph', 'floor'] as const)
      .map((engine) => `${engineLabel(engine)} ${formatBytes(median(heaps[engine]))}`)
      .join(' · ');
    return [{ ...row, heap }];
  },
};
