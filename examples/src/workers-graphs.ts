// The graphs of the workers example: what a team deploys to its worker processes. Factories get each
// worker's checkpointer, so every worker reads and writes the same threads.
import { appendReducer, type Checkpointer, END, START, StateGraph } from '@weft/compose';
import { z } from 'zod';

/** Counts up to `target`, one superstep (and one checkpoint) per tick. */
const counter = new StateGraph(z.object({ count: z.number(), target: z.number() }))
  .addNode('tick', async (state) => {
    await new Promise((resolve) => setTimeout(resolve, 20)); // some "work"
    return { count: state.count + 1 };
  })
  .addEdge(START, 'tick')
  .addConditionalEdges('tick', (state) => (state.count >= state.target ? END : 'tick'), ['tick', END]);

/** Checks an order, asks a person (interrupt), ships or drops it. */
const approval = new StateGraph(
  z.object({ order: z.string(), approved: z.boolean().optional(), log: z.array(z.string()) }),
  { reducers: { log: appendReducer } },
)
  .addNode('check', (state) => ({ log: `checked ${state.order}` }))
  .addNode('ask', (state, ctx) => ({
    approved: ctx.interrupt<boolean>({ question: `ship ${state.order}?` }),
  }))
  .addNode('ship', (state) => ({ log: state.approved ? `shipped ${state.order}` : `dropped ${state.order}` }))
  .addEdge(START, 'check')
  .addEdge('check', 'ask')
  .addEdge('ask', 'ship')
  .addEdge('ship', END);

/** The deployment's graphs, by the names clients submit. */
export const graphs = {
  counter: (checkpointer: Checkpointer) => counter.compile({ checkpointer, name: 'counter', maxSteps: 100 }),
  approval: (checkpointer: Checkpointer) => approval.compile({ checkpointer, name: 'approval' }),
};
