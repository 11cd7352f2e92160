import { appendReducer, END, START, StateGraph } from '@weft/compose';
import { z } from 'zod';
import { sleep } from './sleep.ts';

const LoopState = z.object({
  count: z.number().int().default(0),
  target: z.number().int().default(5),
  delayMs: z.number().int().default(300),
  log: z.array(z.string()).default([]),
});

/** Input of the loop: every key optional, so the same schema also checks forked state. */
const LoopInput = z
  .object({
    target: z
      .number()
      .int()
      .min(1)
      .max(200)
      .optional()
      .describe('Count up to this number')
      .meta({ default: 5 }),
    delayMs: z
      .number()
      .int()
      .min(0)
      .max(5_000)
      .optional()
      .describe('Pause in each step (ms)')
      .meta({ default: 300 }),
    count: z.number().int().optional().describe('Start counting from'),
  })
  .strict();

/**
 * The demo's loop: `increment` runs again and again (a back edge) until `count` reaches `target`,
 * then `report` ends the run. Each step waits `delayMs` (cancellable), so a run can be watched and stopped.
 *
 * @example
 * ```ts
 * await buildLoopGraph().invoke({ target: 3, delayMs: 0 }); // { count: 3, … }
 * ```
 */
export function buildLoopGraph() {
  return new StateGraph(LoopState, { reducers: { log: appendReducer }, input: LoopInput })
    .addNode('increment', async (state, ctx) => {
      await sleep(state.delayMs, ctx.signal);
      return { count: state.count + 1, log: `count ${state.count} → ${state.count + 1}` };
    })
    .addNode('report', (state) => ({ log: `reached ${state.count} (target ${state.target})` }))
    .addEdge(START, 'increment')
    .addConditionalEdges('increment', (state) => (state.count < state.target ? 'increment' : 'report'), [
      'increment',
      'report',
    ])
    .addEdge('report', END)
    .compile({ name: 'counter-loop' });
}
