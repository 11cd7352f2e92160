import { SubgraphPaused } from '../pregel/subgraph-paused.js';
import type { PendingInterrupt } from '../pregel/task.js';
import { InterruptSignal } from '../pregel/task-context.js';
import type { EntryRun } from './call-scope.js';

/**
 * The body let a pause out while task calls may still be running: as in a superstep, every call
 * started in this turn finishes (or pauses) first — a finished one keeps its result, so it is not made
 * again — and the entry task then pauses with every pause raised, so one resume can answer them all
 * (a map `{ [interruptId]: value }`). Returns what the body should throw.
 */
export async function pauseAfterCalls(entry: EntryRun, thrown: unknown): Promise<unknown> {
  while (entry.running.size > 0) await Promise.allSettled([...entry.running]);
  const signals = new Map<string, InterruptSignal>();
  const nested: PendingInterrupt[] = [];
  for (const pause of [thrown, ...entry.pauses]) {
    if (pause instanceof InterruptSignal) signals.set(String(pause.index), pause);
    else if (pause instanceof SubgraphPaused)
      for (const interrupt of pause.interrupts)
        if (!nested.some((seen) => seen.id === interrupt.id)) nested.push(interrupt);
  }
  if (signals.size + nested.length <= 1) return thrown;
  const { ctx, run } = entry;
  const own = [...signals.values()].map(
    (signal): PendingInterrupt => ({
      id: `${ctx.taskId}:${signal.index}`,
      value: signal.value,
      path: ctx.path,
      taskId: ctx.taskId,
    }),
  );
  if (run.observer.event) {
    for (const interrupt of own) {
      run.observer.event({
        type: 'interrupt',
        runId: run.runId,
        ts: Date.now(),
        path: interrupt.path,
        step: ctx.step,
        node: ctx.node,
        interruptId: interrupt.id,
        value: interrupt.value,
      });
    }
  }
  return new SubgraphPaused([...own, ...nested]);
}
