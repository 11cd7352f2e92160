import { END, START, StateGraph } from '@weft/compose';
import { z } from 'zod';

/** Counts up to a target, one step at a time: a loop you can watch in the playground. */
export const counter = new StateGraph(
  z.object({ count: z.number().default(0), target: z.number().default(3) }),
)
  .addNode('increment', (state) => ({ count: state.count + 1 }))
  .addEdge(START, 'increment')
  .addConditionalEdges('increment', (state) => (state.count < state.target ? 'increment' : END))
  .compile();
