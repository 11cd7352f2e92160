// Definition cost: build and compile a long chain (validation, topology, frozen runtime), at several
// sizes per node (is compile linear in nodes + edges?), and `.compile()` alone on a built chain.
import { floorChain } from '../graphs/floor.ts';
import { langGraphChain } from '../graphs/langgraph-graphs.ts';
import { weftChain, weftChainBuilder } from '../graphs/weft-graphs.ts';
import { expectEqual } from '../harness.ts';
import type { Row } from '../table.ts';
import { type BenchContext, compareRow, pick, type Workload } from '../workload.ts';
import { withFlatness } from './scaling.ts';

/** The largest chain LangGraph compiles here (about 0.2 s at 5000; its cell says `skipped` above). */
const LANGGRAPH_MAX = 5000;

/** Node count of a compiled Weft graph (its spec is public; WeftApp leaves it out). */
function weftNodeCount(app: unknown): number {
  return (app as { spec: { nodes: ReadonlyMap<string, unknown> } }).spec.nodes.size;
}

/** Node count of a compiled LangGraph graph, without its `__start__` node. */
function langGraphNodeCount(app: unknown): number {
  return Object.keys((app as { nodes: Record<string, unknown> }).nodes).filter((name) => name !== '__start__')
    .length;
}

/** Build + compile of a `nodes`-long chain in each engine, in µs per node. */
async function scalingRow(context: BenchContext, nodes: number): Promise<Row> {
  const langGraph = nodes <= LANGGRAPH_MAX;
  return compareRow<number>(context, {
    workload: `compile scaling: ${nodes} nodes`,
    ...(langGraph ? {} : { fixed: { langgraph: 'skipped' } }),
    unit: 'µs/node',
    scale: (ms) => (ms * 1000) / nodes,
    runs: {
      weft: async () => weftNodeCount(weftChain(nodes)),
      ...(langGraph ? { langgraph: async () => langGraphNodeCount(langGraphChain(nodes)) } : {}),
      floor: async () => {
        floorChain(nodes);
        return nodes;
      },
    },
    check: (count) => expectEqual('compiled nodes', count, nodes),
  });
}

/** The headline size's scaling row restated in ms per build + compile (the same samples). */
function headline(row: Row, nodes: number): Row {
  const toMs = (cell: Row['weft']) => (typeof cell === 'number' ? (cell * nodes) / 1000 : cell);
  return {
    ...row,
    workload: `compile: build + compile ${nodes}-node chain`,
    unit: 'ms',
    weft: toMs(row.weft),
    langgraph: toMs(row.langgraph),
    floor: toMs(row.floor),
    notes: [],
    failures: [],
  };
}

/** Weft's `.compile()` alone (validation, topology), on one chain built once; no floor (it has no compile). */
async function compileOnlyRow(context: BenchContext, nodes: number): Promise<Row> {
  const builder = weftChainBuilder(nodes);
  return compareRow<number>(context, {
    workload: `compile: .compile() only, ${nodes}-node chain`,
    unit: 'ms',
    runs: { weft: async () => weftNodeCount(builder.compile({ maxSteps: 100_000 })) },
    check: (count) => expectEqual('compiled nodes', count, nodes),
  });
}

export const compileWorkload: Workload = {
  name: 'compile',
  async run(context: BenchContext) {
    const sizes = pick(context, [500, 5000, 50_000], [100, 1000]);
    const headlineSize = pick(context, 5000, 1000);
    const scaling: Row[] = [];
    for (const size of sizes) scaling.push(await scalingRow(context, size));
    const headlineRow = scaling[sizes.indexOf(headlineSize)];
    const compileOnly = await compileOnlyRow(context, headlineSize);
    return [
      ...(headlineRow ? [headline(headlineRow, headlineSize)] : []),
      compileOnly,
      ...withFlatness(scaling, sizes, 'node'),
    ];
  },
};
