// Definition cost: build and compile a long chain (validation, topology, frozen runtime).
import { floorChain } from '../graphs/floor.ts';
import { langGraphChain } from '../graphs/langgraph-graphs.ts';
import { weftChain } from '../graphs/weft-graphs.ts';
import { expectEqual } from '../harness.ts';
import { type BenchContext, compareRow, pick, type Workload } from '../workload.ts';

/** Node count of a compiled Weft graph (its spec is public; WeftApp leaves it out). */
function weftNodeCount(app: unknown): number {
  return (app as { spec: { nodes: ReadonlyMap<string, unknown> } }).spec.nodes.size;
}

/** Node count of a compiled LangGraph graph, without its `__start__` node. */
function langGraphNodeCount(app: unknown): number {
  return Object.keys((app as { nodes: Record<string, unknown> }).nodes).filter((name) => name !== '__start__')
    .length;
}

export const compileWorkload: Workload = {
  name: 'compile',
  async run(context: BenchContext) {
    const nodes = pick(context, 5000, 1000);
    const row = await compareRow<number>(context, {
      workload: `compile: build + compile ${nodes}-node chain`,
      unit: 'ms',
      runs: {
        weft: async () => weftNodeCount(weftChain(nodes)),
        langgraph: async () => langGraphNodeCount(langGraphChain(nodes)),
        floor: async () => {
          floorChain(nodes);
          return nodes;
        },
      },
      check: (count) => expectEqual('compiled nodes', count, nodes),
    });
    return [row];
  },
};
