// The graph the worker rows and the `worker` profile target run: a counter that takes STEPS durable steps.
import { type Checkpointer, END, START, StateGraph } from '@weft/compose';
import { z } from 'zod';

/** Steps a worker run takes (one durable checkpoint each). */
export const WORKER_STEPS = 20;

/**
 * The counter graph on `checkpointer`: `tick` adds one until `n` reaches {@link WORKER_STEPS}.
 *
 * @example
 * const app = workerCounter(new MemoryCheckpointer());
 * await app.invoke({ n: 0 }, { threadId: 't' }); // { n: 20 }
 */
export function workerCounter(checkpointer: Checkpointer) {
  return new StateGraph(z.object({ n: z.number() }))
    .addNode('tick', (state) => ({ n: state.n + 1 }))
    .addEdge(START, 'tick')
    .addConditionalEdges('tick', (state) => (state.n >= WORKER_STEPS ? END : 'tick'), ['tick', END])
    .compile({ checkpointer, name: 'counter', maxSteps: 1000 });
}
