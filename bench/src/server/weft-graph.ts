// The bench graph for Weft's server: the same two nodes as reference-graph.ts.
import { appendReducer, END, START, StateGraph } from '@weft/compose';
import { z } from 'zod';

const State = z.object({
  topic: z.string(),
  words: z.array(z.string()).optional(),
  done: z.boolean().optional(),
});

export const bench = new StateGraph(State, { reducers: { words: appendReducer } })
  .addNode('plan', (state) => ({ words: [`about ${state.topic}`] }))
  .addNode('write', () => ({ words: ['one', 'two', 'three'], done: true }))
  .addEdge(START, 'plan')
  .addEdge('plan', 'write')
  .addEdge('write', END)
  .compile();
