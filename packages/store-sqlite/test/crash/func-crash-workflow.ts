import type { Checkpointer } from '@weft/compose';
import { entrypoint, task } from '@weft/compose/func';
import { appendDurably } from './crash-graph.js';

/** Sequential tasks after the parallel batch. */
export const sequentialSteps = 6;

/**
 * The functional crash workflow: a parallel batch of three `fetch` tasks, then {@link sequentialSteps}
 * `step` tasks in a row, each task appending its name to `sideEffectLog` (durably) before it returns.
 * `pauseAfter(i)` is awaited after step `i` returned (and was stored): the crash test's child blocks there
 * until it is killed.
 */
export function buildFunctionalCrashWorkflow(
  checkpointer: Checkpointer | undefined,
  sideEffectLog: string,
  pauseAfter: (step: number) => Promise<void> | undefined = () => undefined,
) {
  const fetchPart = task('fetch', (part: number) => {
    appendDurably(sideEffectLog, `fetch ${part}`);
    return part * 10;
  });
  const step = task('step', (i: number, total: number) => {
    appendDurably(sideEffectLog, `step ${i}`);
    return total + i;
  });
  return entrypoint(
    { name: 'pipeline', tasks: [fetchPart, step], ...(checkpointer ? { checkpointer } : {}) },
    async (parts: number) => {
      const fetched = await Promise.all(Array.from({ length: parts }, (_, part) => fetchPart(part)));
      let total = fetched.reduce((sum, n) => sum + n, 0);
      for (let i = 0; i < sequentialSteps; i++) {
        total = await step(i, total);
        await pauseAfter(i);
      }
      return { fetched, total };
    },
  );
}
