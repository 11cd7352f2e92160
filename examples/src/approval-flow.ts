/**
 * Human approval that survives a restart: a refund graph pauses for a human with `ctx.interrupt`,
 * the process "restarts" (a new graph and a new store over the same SQLite file), and the decision
 * resumes the run exactly where it paused — the steps before the pause do not run again.
 * Run it with `pnpm --filter @weft/examples approval`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendReducer, Command, END, START, StateGraph } from '@weft/compose';
import { SqliteCheckpointer } from '@weft/store-sqlite';
import { z } from 'zod';

const Refund = z.object({
  order: z.string(),
  amount: z.number(),
  decision: z.enum(['approved', 'rejected']).optional(),
  log: z.array(z.string()).default([]),
});

/** A decision a human gives when asked. */
export interface Decision {
  readonly approve: boolean;
  readonly reviewer: string;
}

/** Builds the refund graph over a checkpoint store; `sideEffects` counts each node's real executions. */
export function buildRefundFlow(checkpointer: SqliteCheckpointer, sideEffects: Record<string, number>) {
  const count = (node: string) => {
    sideEffects[node] = (sideEffects[node] ?? 0) + 1;
  };
  return new StateGraph(Refund, { reducers: { log: appendReducer } })
    .addNode('check', (state) => {
      count('check');
      return { log: `checked order ${state.order} for ${state.amount} EUR` };
    })
    .addNode('approve', (state, ctx) => {
      count('approve');
      const decision = ctx.interrupt<Decision>({
        question: `Refund ${state.amount} EUR for ${state.order}?`,
      });
      return { decision: decision.approve ? 'approved' : 'rejected', log: `${decision.reviewer} decided` };
    })
    .addNode('payout', (state) => {
      count('payout');
      return { log: `paid ${state.amount} EUR` };
    })
    .addEdge(START, 'check')
    .addEdge('check', 'approve')
    .addConditionalEdges('approve', (state) => (state.decision === 'approved' ? 'payout' : END), [
      'payout',
      END,
    ])
    .addEdge('payout', END)
    .compile({ name: 'refund', checkpointer });
}

/** Runs the flow across a simulated restart and returns the final state and the execution counts. */
export async function main(print: (line: string) => void = console.log) {
  const dir = mkdtempSync(join(tmpdir(), 'weft-approval-'));
  const filename = join(dir, 'weft.db');
  const sideEffects: Record<string, number> = {};
  try {
    const firstStore = new SqliteCheckpointer({ filename });
    const paused = await buildRefundFlow(firstStore, sideEffects).run(
      { order: 'A-17', amount: 40 },
      { threadId: 'refund-A-17' },
    );
    print(`first process: ${paused.status}; asks ${JSON.stringify(paused.interrupts[0]?.value)}`);
    await firstStore.close();

    const secondStore = new SqliteCheckpointer({ filename }); // "after the restart"
    const flow = buildRefundFlow(secondStore, sideEffects);
    const waiting = await flow.getState('refund-A-17');
    print(`second process: thread waits at ${waiting?.next.join(', ')}`);
    const final = await flow.invoke(new Command({ resume: { approve: true, reviewer: 'dana' } }), {
      threadId: 'refund-A-17',
    });
    print(`final: ${JSON.stringify(final)}`);
    print(`executions: ${JSON.stringify(sideEffects)}`);
    await secondStore.close();
    return { final, sideEffects };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
