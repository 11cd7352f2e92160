import { isCommand } from '../vocabulary/command.js';
import { applyStateWrites } from './apply.js';
import type { LoopView } from './loop-hooks.js';
import type { RunObserver } from './run-context.js';
import { SubgraphWrites } from './subgraph-writes.js';
import { type PendingInterrupt, type Task, TaskPaused } from './task.js';
import type { CompiledNode } from './topology.js';

/** The interrupts of a step's paused tasks, or `undefined` when none paused. */
export function collectInterrupts(outputs: readonly unknown[]): PendingInterrupt[] | undefined {
  let interrupts: PendingInterrupt[] | undefined;
  for (const output of outputs)
    if (output instanceof TaskPaused) (interrupts ??= []).push(...output.interrupts);
  return interrupts;
}

/** The state with the writes of the finished tasks of a paused step (task order), as shown at the pause. */
export function pausedOutput(loop: LoopView, outputs: readonly unknown[]): unknown {
  const { topology } = loop;
  if (!topology.state) return loop.output();
  const names: string[] = [];
  const done: unknown[] = [];
  loop.tasks.forEach((task, i) => {
    if (!(i in outputs) || outputs[i] instanceof TaskPaused) return;
    names.push((topology.nodes[task.node] as CompiledNode).name);
    done.push(outputs[i]);
  });
  if (done.length === 0) return loop.values;
  try {
    return applyStateWrites(topology.state, loop.values, names, done).values;
  } catch {
    // A conflict among them is reported when the step completes; until then the state before it shows.
    return loop.values;
  }
}

/**
 * Shows one finished task's write to the `updates` subscriber, as the task finishes (LangGraph streams
 * each task's writes when it finishes, so a sibling's update comes before a slower subgraph's own): a
 * `Command`'s update, a subgraph's writes as one object; nothing for a pause or an empty write.
 */
export function showUpdate(loop: LoopView, task: Task, output: unknown): Promise<void> | undefined {
  if (output instanceof TaskPaused) return undefined;
  const raw = isCommand(output) ? output.update : output;
  const { run, topology } = loop;
  if (topology.state && (raw === undefined || raw === null)) return undefined;
  const update = raw instanceof SubgraphWrites ? Object.fromEntries(raw.writes) : raw;
  const name = (topology.nodes[task.node] as CompiledNode).name;
  return (run.observer.updates as NonNullable<RunObserver['updates']>)(name, update, run.path);
}
