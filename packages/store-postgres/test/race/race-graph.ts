import { appendFileSync } from 'node:fs';
import { type Checkpointer, END, START, StateGraph } from '@weft/compose';
import { z } from 'zod';

/**
 * The graph two processes race on: `ask` pauses for a decision, `act` appends `<thread>:<decision>` to
 * the side-effect log once `entered` resolved (the test holds the winner there until the loser answered).
 */
export function buildRaceGraph(
  checkpointer: Checkpointer,
  effectsLog: string,
  entered: (threadId: string) => Promise<void>,
) {
  return new StateGraph(z.object({ decision: z.string().default('') }))
    .addNode('ask', (_state, ctx) => ({ decision: ctx.interrupt<string>('approve or reject?') }))
    .addNode('act', async (state, ctx) => {
      await entered(ctx.threadId ?? '');
      appendFileSync(effectsLog, `${ctx.threadId}:${state.decision}\n`);
      return {};
    })
    .addEdge(START, 'ask')
    .addEdge('ask', 'act')
    .addEdge('act', END)
    .compile({ checkpointer });
}

/**
 * The skew graph: every turn (input `{ turn }`) runs `tick` 30 times, one step each, logging `tick:<n>`.
 */
export function buildTickGraph(checkpointer: Checkpointer, effectsLog: string) {
  return new StateGraph(z.object({ n: z.number().optional(), turn: z.number() }))
    .addNode('tick', (state) => {
      const n = (state.n ?? 0) + 1;
      appendFileSync(effectsLog, `tick:${n}\n`);
      return { n };
    })
    .addEdge(START, 'tick')
    .addConditionalEdges('tick', (state) => ((state.n ?? 0) % 30 === 0 ? END : 'tick'))
    .compile({ checkpointer, maxSteps: 100 });
}
