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

/** Streams the updates of a paused step's finished tasks, in the order they finished. */
export async function streamFinished(
  loop: LoopView,
  outputs: readonly unknown[],
  order: readonly number[],
): Promise<void> {
  const { run, topology } = loop;
  const updates = run.observer.updates as NonNullable<RunObserver['updates']>;
  for (const i of order) {
    const output = outputs[i];
    if (output instanceof TaskPaused) continue;
    const raw = isCommand(output) ? output.update : output;
    if (raw === undefined || raw === null) continue;
    const update = raw instanceof SubgraphWrites ? Object.fromEntries(raw.writes) : raw;
    const name = (topology.nodes[(loop.tasks[i] as Task).node] as CompiledNode).name;
    const wait = updates(name, update, run.path);
    if (wait) await wait;
  }
}
