import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { appendReducer, type Checkpointer, END, START, StateGraph } from '@weft/compose';
import { z } from 'zod';

/** Steps the crash graph runs (one task each). */
export const crashSteps = 50;

/** Appends a line to a file and flushes it to disk before returning (the side effect a kill can cut). */
export function appendDurably(file: string, line: string): void {
  const fd = openSync(file, 'a');
  try {
    writeSync(fd, `${line}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * A loop of {@link crashSteps} steps: each `tick` appends its task id to `sideEffectLog` (durably), then
 * works for `delayMs`, then counts. Used by the crash test in a child process and in-process as reference.
 */
export function buildCrashGraph(
  checkpointer: Checkpointer | undefined,
  sideEffectLog: string,
  delayMs: number,
) {
  return new StateGraph(z.object({ count: z.number().default(0), trail: z.array(z.string()).default([]) }), {
    reducers: { trail: appendReducer },
  })
    .addNode('tick', async (state, ctx) => {
      appendDurably(sideEffectLog, ctx.taskId);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return { count: state.count + 1, trail: `t${state.count}` };
    })
    .addEdge(START, 'tick')
    .addConditionalEdges('tick', (state) => (state.count < crashSteps ? 'tick' : END), ['tick', END])
    .compile({ name: 'crash', maxSteps: crashSteps * 2, ...(checkpointer ? { checkpointer } : {}) });
}
