import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import type { Checkpointer } from '../../checkpoint/checkpointer.js';
import { StateGraph } from '../../graph/state-graph.js';
import { END, START } from '../../vocabulary/constants.js';

/**
 * The graph two processes race on (see `describeMultiProcessRace`): `ask` pauses for a decision, `act` appends `<thread>:<decision>` to
 * the side-effect log once `entered` resolved (the test holds the winner there until the loser answered).
 *
 * @example
 * ```ts
 * const app = buildRaceGraph(new MemoryCheckpointer(), '/tmp/effects.log', async () => {});
 * await app.invoke({}, { threadId: 't' }); // pauses at `ask`
 * ```
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
 *
 * @example
 * ```ts
 * const app = buildTickGraph(new MemoryCheckpointer(), '/tmp/effects.log');
 * await app.invoke({ turn: 1 }, { threadId: 't' }); // { n: 30, turn: 1 }
 * ```
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
