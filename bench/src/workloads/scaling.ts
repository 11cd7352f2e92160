// How cost grows with size: Send map-reduce at 100–100,000 tasks, chains of 10–100,000 nodes, per unit
// (task or node-step) with the GC share of the samples and the minor page faults per unit; the last row's
// note gives the largest size's per-unit cost over the cost at 100 (flat is ≤ 1.2×) and Weft/floor at
// both sizes (see bench/README.md on why the floor itself is not flat). LangGraph runs the sizes up to
// LANGGRAPH_MAX only (at 3000 it already takes seconds per invoke).
import { floorChain, floorSend } from '../graphs/floor.ts';
import { langGraphChain, langGraphConfig, langGraphSend } from '../graphs/langgraph-graphs.ts';
import { type Counter, type Total, weftChain, weftSend } from '../graphs/weft-graphs.ts';
import { expectEqual } from '../harness.ts';
import type { Row } from '../table.ts';
import { type BenchContext, batched, compareRow, pick, type Workload } from '../workload.ts';

/** The largest size LangGraph runs; above it its cell says `skipped`. */
const LANGGRAPH_MAX = 1000;

function sumOfSquares(count: number): number {
  return ((count - 1) * count * (2 * count - 1)) / 6;
}

async function sendRow(context: BenchContext, tasks: number): Promise<Row> {
  const weft = weftSend(tasks);
  const langGraph = tasks <= LANGGRAPH_MAX ? langGraphSend(tasks) : undefined;
  const floor = floorSend(tasks);
  // Full runs: one invoke per batch (a sample repeats it for ≥ 1 s); quick: about 200 tasks a batch.
  const invokes = context.quick ? Math.max(1, Math.round(200 / tasks)) : 1;
  const once = {
    weft: () => weft.invoke({ total: 0 }),
    ...(langGraph ? { langgraph: () => langGraph.invoke({ total: 0 }, langGraphConfig()) } : {}),
    floor: () => floor({ total: 0 }),
  };
  return compareRow<Total>(context, {
    workload: `send scaling: ${tasks} tasks`,
    ...(langGraph ? {} : { fixed: { langgraph: 'skipped' } }),
    unit: 'µs/task',
    scale: (ms) => (ms * 1000) / (invokes * tasks),
    unitsPerRun: invokes * tasks,
    runs: batched(invokes, once),
    once,
    check: (state) => expectEqual('sum of squares', state.total, sumOfSquares(tasks)),
  });
}

/** The 1000-task scaling point (200 with --quick), restated as ms per invoke: the `send` headline row. */
function headline(row: Row, tasks: number): Row {
  const toMs = (cell: Row['weft']) => (typeof cell === 'number' ? (cell * tasks) / 1000 : cell);
  return {
    ...row,
    workload: `send: ${tasks} Send tasks, sum reducer`,
    unit: 'ms/invoke',
    weft: toMs(row.weft),
    langgraph: toMs(row.langgraph),
    floor: toMs(row.floor),
    failures: [],
  };
}

export const sendWorkload: Workload = {
  name: 'send',
  async run(context: BenchContext) {
    const sizes = pick(context, [100, 1000, 10_000, 100_000], [50, 200]);
    const headlineSize = pick(context, 1000, 200);
    const rows: Row[] = [];
    for (const tasks of sizes) rows.push(await sendRow(context, tasks));
    const headlineRow = rows[sizes.indexOf(headlineSize)];
    const scaled = withFlatness(rows, sizes, 'task');
    return headlineRow ? [headline(headlineRow, headlineSize), ...scaled] : scaled;
  },
};

async function chainScalingRow(context: BenchContext, nodes: number, stepsPerSample: number): Promise<Row> {
  context.log(`  (compiling ${nodes}-node chains)`);
  const weft = weftChain(nodes);
  const langGraph = nodes <= LANGGRAPH_MAX ? langGraphChain(nodes) : undefined;
  const floor = floorChain(nodes);
  const invokes = Math.max(1, Math.ceil(stepsPerSample / nodes));
  const once = {
    weft: () => weft.invoke({ n: 0 }),
    ...(langGraph ? { langgraph: () => langGraph.invoke({ n: 0 }, langGraphConfig()) } : {}),
    floor: () => floor({ n: 0 }),
  };
  return compareRow<Counter>(context, {
    workload: `chain scaling: ${nodes} nodes`,
    ...(langGraph ? {} : { fixed: { langgraph: 'skipped' } }),
    unit: 'µs/step',
    scale: (ms) => (ms * 1000) / (invokes * nodes),
    unitsPerRun: invokes * nodes,
    runs: batched(invokes, once),
    once,
    check: (state) => expectEqual('chain n', state.n, nodes),
  });
}

export const chainScalingWorkload: Workload = {
  name: 'scaling',
  async run(context: BenchContext) {
    const sizes = pick(context, [10, 100, 1000, 10_000, 100_000], [10, 100]);
    const stepsPerSample = pick(context, 1, 200);
    const rows: Row[] = [];
    for (const nodes of sizes) rows.push(await chainScalingRow(context, nodes, stepsPerSample));
    return withFlatness(rows, sizes, 'step');
  },
};

/**
 * Adds to the largest size's row the note: its per-unit cost over that at the smallest size ≥ 100, per
 * engine, and Weft/floor at both sizes — flat relative to the floor when those two stay alike.
 */
export function withFlatness(rows: Row[], sizes: readonly number[], unit: string): Row[] {
  const base = sizes.findIndex((size) => size >= 100);
  const last = rows.length - 1;
  if (base < 0 || base >= last) return rows;
  const parts: string[] = [];
  for (const [engine, label] of [
    ['weft', 'Weft'],
    ['floor', 'floor'],
  ] as const) {
    const a = rows[base]?.[engine];
    const b = rows[last]?.[engine];
    if (typeof a === 'number' && typeof b === 'number') parts.push(`${label} ${(b / a).toFixed(2)}×`);
  }
  if (parts.length === 0) return rows;
  const relative = [base, last].map((i) => weftOverFloor(rows[i]));
  const against =
    relative[0] && relative[1]
      ? `; Weft/floor ${relative[0]} at ${sizes[base]}, ${relative[1]} at ${sizes[last]}`
      : '';
  const note = `per ${unit} at ${sizes[last]} / at ${sizes[base]}: ${parts.join(', ')} (flat is ≤ 1.2×)${against}`;
  return rows.map((row, i) => (i === last ? { ...row, notes: [...row.notes, note] } : row));
}

/** A row's Weft/floor ratio as text, or undefined when either cell is not a number. */
function weftOverFloor(row: Row | undefined): string | undefined {
  if (typeof row?.weft !== 'number' || typeof row.floor !== 'number' || row.floor === 0) return undefined;
  return `${(row.weft / row.floor).toFixed(2)}×`;
}
