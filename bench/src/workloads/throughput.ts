// Engine overhead on small state: a long chain, a tight loop, and a wide fan-out with a join.
import { floorChain, floorFanout, floorLoop } from '../graphs/floor.ts';
import {
  langGraphChain,
  langGraphConfig,
  langGraphFanout,
  langGraphLoop,
} from '../graphs/langgraph-graphs.ts';
import { type Counter, type Items, weftChain, weftFanout, weftLoop } from '../graphs/weft-graphs.ts';
import { expectEqual } from '../harness.ts';
import { type BenchContext, batched, compareRow, pick, type Workload } from '../workload.ts';

/** Checks a fan-out's final state: every branch wrote once, and the join saw all of them. */
export function checkFanout(width: number): (state: Items) => void {
  const expectedSum = (width * (width - 1)) / 2;
  return (state) => {
    expectEqual('item count', state.items.length, width);
    expectEqual(
      'item sum',
      state.items.reduce((a, b) => a + b, 0),
      expectedSum,
    );
    expectEqual('join count', state.count, width);
  };
}

export const chainWorkload: Workload = {
  name: 'chain',
  async run(context: BenchContext) {
    const nodes = 100;
    // Full runs: one invoke per batch (a sample repeats it for ≥ 1 s); quick runs: a short fixed batch.
    const invokes = pick(context, 1, 3);
    const weft = weftChain(nodes);
    const langGraph = langGraphChain(nodes);
    const floor = floorChain(nodes);
    const once = {
      weft: () => weft.invoke({ n: 0 }),
      langgraph: () => langGraph.invoke({ n: 0 }, langGraphConfig()),
      floor: () => floor({ n: 0 }),
    };
    const row = await compareRow<Counter>(context, {
      workload: `chain: ${nodes} nodes`,
      unit: 'ms/invoke',
      scale: (ms) => ms / invokes,
      runs: batched(invokes, once),
      once,
      check: (state) => expectEqual('chain n', state.n, nodes),
    });
    return [row];
  },
};

export const loopWorkload: Workload = {
  name: 'loop',
  async run(context: BenchContext) {
    const iterations = pick(context, 1000, 50);
    const weft = weftLoop(iterations);
    const langGraph = langGraphLoop(iterations);
    const floor = floorLoop(iterations);
    const row = await compareRow<Counter>(context, {
      workload: `loop: 2 nodes × ${iterations} iterations`,
      unit: 'ms/invoke',
      runs: {
        weft: () => weft.invoke({ n: 0 }),
        langgraph: () => langGraph.invoke({ n: 0 }, langGraphConfig()),
        floor: () => floor({ n: 0 }),
      },
      check: (state) => expectEqual('loop n', state.n, iterations),
    });
    return [row];
  },
};

export const fanoutWorkload: Workload = {
  name: 'fanout',
  async run(context: BenchContext) {
    const width = 100;
    const invokes = pick(context, 1, 3);
    const weft = weftFanout(width);
    const langGraph = langGraphFanout(width);
    const floor = floorFanout(width);
    const once = {
      weft: () => weft.invoke({}),
      langgraph: () => langGraph.invoke({}, langGraphConfig()),
      floor: () => floor({}),
    };
    const row = await compareRow<Items>(context, {
      workload: `fanout: ${width} parallel → join`,
      unit: 'ms/invoke',
      scale: (ms) => ms / invokes,
      runs: batched(invokes, once),
      once,
      check: checkFanout(width),
    });
    return [row];
  },
};
