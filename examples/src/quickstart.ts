/**
 * Quickstart: a state graph with a loop, a map-reduce fan-out with Send, and a dataflow graph —
 * invoked and streamed. Run it with `pnpm --filter @weft/examples quickstart`.
 */

import { appendReducer, END, Graph, Send, START, StateGraph, sumReducer } from '@weft/compose';
import { z } from 'zod';

/** A counter that loops through a conditional back edge until it reaches `target`. */
export function buildCounter() {
  return new StateGraph(
    z.object({ count: z.number(), target: z.number(), log: z.array(z.string()).default([]) }),
    {
      reducers: { log: appendReducer },
    },
  )
    .addNode('increment', (state) => ({ count: state.count + 1, log: `count was ${state.count}` }))
    .addEdge(START, 'increment')
    .addConditionalEdges('increment', (state) => (state.count < state.target ? 'increment' : END), [
      'increment',
      END,
    ])
    .compile({ name: 'counter' });
}

/** Map-reduce: one `Send` per item squares it; a sum reducer adds the squares. */
export function buildSquares() {
  return new StateGraph(z.object({ items: z.array(z.number()), total: z.number().default(0) }), {
    reducers: { total: sumReducer },
  })
    .addNode('square', (item: number) => ({ total: item * item }))
    .addConditionalEdges(START, (state) => state.items.map((item) => new Send('square', item)))
    .addEdge('square', END)
    .compile({ name: 'squares' });
}

/** Dataflow: each node's output feeds the next node's input; edge types are checked by tsc. */
export function buildWordStats() {
  return new Graph<string, { words: number; longest: string }>()
    .addNode('split', (text: string) => text.split(/\s+/).filter(Boolean))
    .addNode('stats', (words: string[]) => ({
      words: words.length,
      longest: words.reduce((a, b) => (b.length > a.length ? b : a), ''),
    }))
    .addEdge(START, 'split')
    .addEdge('split', 'stats')
    .addEdge('stats', END)
    .compile({ name: 'word-stats' });
}

/** Runs all three and returns what a user would look at. */
export async function main(print: (line: string) => void = console.log) {
  const counter = buildCounter();
  const state = await counter.invoke({ count: 0, target: 3 });
  print(`counter → ${JSON.stringify(state)}`);
  for await (const { node, update } of counter.stream({ count: 0, target: 2 }, { mode: 'updates' })) {
    print(`  update from ${node}: ${JSON.stringify(update)}`);
  }
  const squares = await buildSquares().invoke({ items: [1, 2, 3, 4] });
  print(`squares → total ${squares.total}`);
  const stats = await buildWordStats().invoke('graphs compile into supersteps');
  print(`word stats → ${JSON.stringify(stats)}`);
  print(counter.toMermaid());
  return { state, squares, stats };
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
