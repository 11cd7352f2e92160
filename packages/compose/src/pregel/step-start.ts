import type { LoopView } from './loop-hooks.js';
import type { RunContext } from './run-context.js';
import type { CompiledNode } from './topology.js';

/** Reports `step-start` for the loop's planned tasks (only when someone watches events). */
export function emitStepStart(loop: LoopView, started: number): void {
  const { run, topology, tasks, step } = loop;
  if (!run.observer.event) return;
  const names = tasks.map((t) => (topology.nodes[t.node] as CompiledNode).name);
  run.observer.event({
    type: 'step-start',
    runId: run.runId,
    ts: started,
    path: run.path,
    step,
    tasks: names,
    ...ownerOf(run),
  });
}

/** Where a nested graph's step runs: the enclosing task and the key of `runSubgraph` (none at the root). */
function ownerOf(run: RunContext): { parentTaskId?: string; key?: string } {
  const { owner } = run;
  if (!owner) return {};
  return owner.key === undefined
    ? { parentTaskId: owner.taskId }
    : { parentTaskId: owner.taskId, key: owner.key };
}
