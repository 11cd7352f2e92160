// How cost grows with size: Send map-reduce at 100–3000 tasks, chains of 10–3000 nodes.
import { floorChain, floorSend } from '../graphs/floor.ts';
import { langGraphChain, langGraphConfig, langGraphSend } from '../graphs/langgraph-graphs.ts';
import { type Counter, type Total, weftChain, weftSend } from '../graphs/weft-graphs.ts';
import { expectEqual } from '../harness.ts';
import type { Row } from '../table.ts';
import { type BenchContext, batched, compareRow, pick, type Workload } from '../workload.ts';

function sumOfSquares(count: number): number {
  return ((count - 1) * count * (2 * count - 1)) / 6;
}

async function sendRow(context: BenchContext, tasks: number): Promise<Row> {
  const weft = weftSend(tasks);
  const langGraph = langGraphSend(tasks);
  const floor = floorSend(tasks);
  // About as many tasks per sample at every size (1000, or 200 with --quick).
  const invokes = Math.max(1, Math.round(pick(context, 1000, 200) / tasks));
  const once = {
    weft: () => weft.invoke({ total: 0 }),
    langgraph: () => langGraph.invoke({ total: 0 }, langGraphConfig()),
    floor: () => floor({ total: 0 }),
  };
  return compareRow<Total>(context, {
    workload: `send scaling: ${tasks} tasks`,
    unit: 'µs/task',
    scale: (ms) => (ms * 1000) / (invokes * tasks),
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
    const sizes = pick(context, [100, 1000, 3000], [50, 200]);
    const headlineSize = pick(context, 1000, 200);
    const rows: Row[] = [];
    for (const tasks of sizes) rows.push(await sendRow(context, tasks));
    const headlineRow = rows[sizes.indexOf(headlineSize)];
    return headlineRow ? [headline(headlineRow, headlineSize), ...rows] : rows;
  },
};

async function chainScalingRow(context: BenchContext, nodes: number, stepsPerSample: number): Promise<Row> {
  context.log(`  (compiling ${nodes}-node chains)`);
  const weft = weftChain(nodes);
  const langGraph = langGraphChain(nodes);
  const floor = floorChain(nodes);
  const invokes = Math.max(1, Math.ceil(stepsPerSample / nodes));
  const once = {
    weft: () => weft.invoke({ n: 0 }),
    langgraph: () => langGraph.invoke({ n: 0 }, langGraphConfig()),
    floor: () => floor({ n: 0 }),
  };
  return compareRow<Counter>(context, {
    workload: `chain scaling: ${nodes} nodes`,
    unit: 'µs/step',
    scale: (ms) => (ms * 1000) / (invokes * nodes),
    runs: batched(invokes, once),
    once,
    check: (state) => expectEqual('chain n', state.n, nodes),
  });
}

export const chainScalingWorkload: Workload = {
  name: 'scaling',
  async run(context: BenchContext) {
    const sizes = pick(context, [10, 100, 1000, 3000], [10, 100]);
    const stepsPerSample = pick(context, 3000, 200);
    const rows: Row[] = [];
    for (const nodes of sizes) rows.push(await chainScalingRow(context, nodes, stepsPerSample));
    return rows;
  },
};
