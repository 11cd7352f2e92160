// The graphs `pnpm --filter @weft/worker start` serves when no --module is given: a module for
// `start-workers.ts` exports `graphs` (a GraphMap: names to graphs or `(checkpointer) => graph`).
import { appendReducer, type Checkpointer, END, START, StateGraph } from '@weft/compose';
import { z } from 'zod';

const counter = new StateGraph(z.object({ count: z.number(), target: z.number() }))
  .addNode('tick', async (state) => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { count: state.count + 1 };
  })
  .addEdge(START, 'tick')
  .addConditionalEdges('tick', (state) => (state.count >= state.target ? END : 'tick'), ['tick', END]);

const approval = new StateGraph(
  z.object({ order: z.string(), approved: z.boolean().optional(), log: z.array(z.string()) }),
  {
    reducers: { log: appendReducer },
  },
)
  .addNode('check', (state) => ({ log: `checked ${state.order}` }))
  .addNode('ask', (state, ctx) => ({
    approved: ctx.interrupt<boolean>({ question: `approve ${state.order}?` }),
  }))
  .addNode('ship', (state) => ({ log: state.approved ? `shipped ${state.order}` : `dropped ${state.order}` }))
  .addEdge(START, 'check')
  .addEdge('check', 'ask')
  .addEdge('ask', 'ship')
  .addEdge('ship', END);

/** Graph names to factories compiled with each worker's checkpointer. */
export const graphs = {
  counter: (checkpointer: Checkpointer) => counter.compile({ checkpointer, name: 'counter', maxSteps: 1000 }),
  approval: (checkpointer: Checkpointer) => approval.compile({ checkpointer, name: 'approval' }),
};
