// Process hygiene: warnings (e.g. MaxListenersExceededWarning) at a 3000-wide fan-out, and heap retained
// after 10,000 invokes of a small graph (flat is good; growth is a leak).
import { floorChain, floorFanout } from '../graphs/floor.ts';
import { langGraphChain, langGraphConfig, langGraphFanout } from '../graphs/langgraph-graphs.ts';
import { weftChain, weftFanout } from '../graphs/weft-graphs.ts';
import { type Engine, retainedHeap } from '../harness.ts';
import { type Cell, engineLabel, formatBytes, type Row } from '../table.ts';
import { type BenchContext, pick, type Workload } from '../workload.ts';
import { checkFanout } from './throughput.ts';

/** Runs `body` and returns the process warnings emitted meanwhile (after letting them flush). */
async function captureWarnings(body: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const listener = (warning: Error) => seen.push(warning.name);
  process.on('warning', listener);
  try {
    await body();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', listener);
  }
  return seen;
}

function describeWarnings(names: readonly string[]): string {
  if (names.length === 0) return 'none';
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, count]) => `${name} ×${count}`).join(', ');
}

export const warningsWorkload: Workload = {
  name: 'warnings',
  async run(context: BenchContext) {
    const width = pick(context, 3000, 300);
    context.log(`  ${width}-wide fan-out, watching process warnings`);
    const check = checkFanout(width);
    const runs: Record<Engine, () => Promise<void>> = {
      weft: async () => check(await weftFanout(width).invoke({})),
      langgraph: async () => check(await langGraphFanout(width).invoke({}, langGraphConfig())),
      floor: async () => check(await floorFanout(width)({})),
    };
    const cells: Record<Engine, Cell> = { weft: null, langgraph: null, floor: null };
    const failures: string[] = [];
    for (const engine of context.engines) {
      await context.turn();
      try {
        cells[engine] = describeWarnings(await captureWarnings(runs[engine]));
      } catch (error) {
        cells[engine] = 'FAIL';
        failures.push(`warnings [${engine}]: ${error instanceof Error ? error.message : error}`);
      }
    }
    const row: Row = {
      workload: `warnings: ${width}-wide fan-out`,
      unit: '',
      ...cells,
      heap: '–',
      ratios: false,
      failures,
      notes: [],
    };
    return [row];
  },
};

/**
 * Retained heap growth (after forced GC) across `count` invokes, in KB. A warm-up of `count / 10` invokes
 * first lets the JIT's code and feedback settle, so what remains is what runs leave behind.
 */
async function retainedGrowth(count: number, invoke: () => Promise<{ n: number }>, nodes: number) {
  for (let i = 0; i < count / 10; i++) await invoke();
  const before = retainedHeap();
  for (let i = 0; i < count; i++) {
    const state = await invoke();
    if (state.n !== nodes) throw new Error(`invoke ${i} ended with n=${state.n}, expected ${nodes}`);
  }
  const after = retainedHeap();
  return { before, after, growthKb: (after - before) / 1024 };
}

export const heapWorkload: Workload = {
  name: 'heap',
  async run(context: BenchContext) {
    const count = pick(context, 10_000, 200);
    const nodes = 3;
    context.log(`  retained heap across ${count} invokes of a ${nodes}-node chain`);
    const weft = weftChain(nodes);
    const langGraph = langGraphChain(nodes);
    const floor = floorChain(nodes);
    const invokes: Record<Engine, () => Promise<{ n: number }>> = {
      weft: () => weft.invoke({ n: 0 }),
      langgraph: () => langGraph.invoke({ n: 0 }, langGraphConfig()),
      floor: () => floor({ n: 0 }),
    };
    const cells: Record<Engine, Cell> = { weft: null, langgraph: null, floor: null };
    const heap: string[] = [];
    const failures: string[] = [];
    for (const engine of context.engines) {
      await context.turn();
      try {
        const growth = await retainedGrowth(count, invokes[engine], nodes);
        cells[engine] = growth.growthKb;
        heap.push(`${engineLabel(engine)} ${formatBytes(growth.before)}→${formatBytes(growth.after)}`);
      } catch (error) {
        cells[engine] = 'FAIL';
        failures.push(`heap [${engine}]: ${error instanceof Error ? error.message : error}`);
      }
    }
    return [
      {
        workload: `retained heap: ${count} invokes, ${nodes}-node chain`,
        unit: 'KB',
        ...cells,
        heap: heap.join(' · '),
        ratios: false,
        failures,
        notes: [],
      },
    ];
  },
};
