// The node cache's hot-path cost on the 100-node chain, Weft only, three variants interleaved: no cache;
// `compile({ cache })` with no node asking for it (zero cost when unused: should match the first); and
// every node with a `cachePolicy`, all hits after the first invoke (a hit skips the node but looks up
// its key and replays its write).
import { END, MemoryCache, START, StateGraph } from '@weft/compose';
import { z } from 'zod';
import type { Counter, WeftApp } from '../graphs/weft-graphs.ts';
import { interleaved, ratio } from '../interleaved.ts';
import type { Row } from '../table.ts';
import { type BenchContext, measures, pick, type Workload } from '../workload.ts';

const NODES = 100;

function cachedChain(cache: MemoryCache | undefined, policy: boolean): WeftApp<Counter> {
  const cachePolicy = { key: (state: Counter) => String(state.n) };
  // biome-ignore lint/suspicious/noExplicitAny: generated graph; the builder type grows with every node name
  let graph: any = new StateGraph(z.object({ n: z.number() }));
  for (let i = 0; i < NODES; i++) {
    graph = graph.addNode(`n${i}`, (state: Counter) => ({ n: state.n + 1 }), policy ? { cachePolicy } : {});
  }
  graph = graph.addEdge(START, 'n0');
  for (let i = 1; i < NODES; i++) graph = graph.addEdge(`n${i - 1}`, `n${i}`);
  return graph.addEdge(`n${NODES - 1}`, END).compile({ maxSteps: 1000, ...(cache ? { cache } : {}) });
}

export const nodeCacheWorkload: Workload = {
  name: 'cache',
  async run(context: BenchContext) {
    if (!measures(context, 'weft')) return [];
    const invokes = pick(context, 200, 5);
    const plain = cachedChain(undefined, false);
    const unused = cachedChain(new MemoryCache(), false);
    const hits = cachedChain(new MemoryCache(), true);
    context.log(`  cache: chain ${NODES} × ${invokes}, three variants interleaved`);
    const [off, idle, hit] = (await interleaved(
      context,
      { prefix: 'cache', size: `chain ${NODES}`, expectedN: NODES },
      [
        { label: 'off', once: () => plain.invoke({ n: 0 }) },
        { label: 'configured, no node uses it', once: () => unused.invoke({ n: 0 }) },
        { label: 'every node cached, all hits', once: () => hits.invoke({ n: 0 }) },
      ],
      invokes,
    )) as [Row, Row, Row];
    return [
      { ...off, heap: 'samples interleaved; heap not measured' },
      { ...idle, heap: '', notes: [`cache: configured but unused / off = ${ratio(idle, off)}`] },
      { ...hit, heap: '', notes: [`cache: all hits / off = ${ratio(hit, off)}`] },
    ];
  },
};
