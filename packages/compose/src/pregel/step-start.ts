import type { StepStartEvent } from '../events/run-event.js';
import type { LoopView } from './loop-hooks.js';
import type { Task } from './task.js';
import { aloneList, type CompiledNode } from './topology.js';

/** Reports `step-start` for the loop's planned tasks (only when someone watches events). */
export function emitStepStart(loop: LoopView, started: number): void {
  const { run, step } = loop;
  if (!run.observer.event) return;
  const names = taskNames(loop);
  // One literal per shape (no spread): where a nested graph's step runs is the enclosing task and the key
  // of `runSubgraph`; the root's steps have neither.
  const { owner, runId, path } = run;
  const ts = started;
  const event: StepStartEvent = !owner
    ? { type: 'step-start', runId, ts, path, step, tasks: names }
    : owner.key === undefined
      ? { type: 'step-start', runId, ts, path, step, tasks: names, parentTaskId: owner.taskId }
      : {
          type: 'step-start',
          runId,
          ts,
          path,
          step,
          tasks: names,
          parentTaskId: owner.taskId,
          key: owner.key,
        };
  // A nested agent's graph names its agent on every step (a resumed run may start at any step): one
  // more object, for agent graphs only.
  const agent = owner ? loop.topology.agent : undefined;
  run.observer.event(agent ? { ...event, agent } : event);
}

/** The nodes of the step's tasks, in task order (a lone task's node gives its shared frozen list). */
function taskNames({ topology, tasks }: LoopView): readonly string[] {
  const { nodes } = topology;
  if (tasks.length === 1) return aloneList(nodes[(tasks[0] as Task).node] as CompiledNode);
  const names = new Array<string>(tasks.length);
  for (let i = 0; i < tasks.length; i++) names[i] = (nodes[(tasks[i] as Task).node] as CompiledNode).name;
  return names;
}
