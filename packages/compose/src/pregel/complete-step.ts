import { lastNodeEndAt } from '../events/node-outcome-events.js';
import { isPromiseLike } from '../runnable/runnable.js';
import type { LoopView } from './loop-hooks.js';
import { type Finished, planNext } from './plan.js';
import { applyTasks, type StepWrites } from './step-writes.js';

/**
 * Completes a step that ran to the end: applies its writes, plans the next step, reports
 * `step-end` and the values, and hands the step to `afterStep` (checkpoints). Returns a promise only when
 * routing, an observer or a hook is asynchronous, so synchronous steps never await. `outputs` are those
 * of the loop's current tasks. A step whose tasks ran without awaiting (`ranSync`) and that awaits
 * nothing before its `step-end` reports it at the last `node-end` clock read (see `lastNodeEndAt`).
 */
export function completeStep(
  loop: LoopView,
  outputs: unknown[],
  started: number,
  ranSync: boolean,
): Promise<void> | undefined {
  // Each task's write was shown to `updates` subscribers as it finished (see `showUpdate`).
  const { finished, writes, changed } = applyTasks(loop, loop.tasks, outputs);
  return route(loop, finished, { writes, changed, started, sync: ranSync });
}

/** What a completed step hands on to its end. */
interface StepDone {
  readonly writes: StepWrites;
  readonly changed: readonly string[];
  readonly started: number;
  /** Nothing was awaited since the step started, so far (its `step-end` may reuse the last `node-end` time). */
  readonly sync: boolean;
}

function route(loop: LoopView, finished: Finished[], done: StepDone): Promise<void> | undefined {
  const planned = planNext(
    { topology: loop.topology, routing: loop.routing, routerInput: loop.routerInput, step: loop.prefix() },
    finished,
  );
  if (isPromiseLike(planned)) {
    return planned.then((tasks) => {
      loop.planned(tasks);
      return finishStep(loop, done, false);
    });
  }
  loop.planned(planned);
  return finishStep(loop, done, done.sync);
}

/** `sync`: nothing was awaited since the step started (see `completeStep`). */
function finishStep(loop: LoopView, done: StepDone, sync: boolean): Promise<void> | undefined {
  const { run, topology } = loop;
  const now = run.observer.event ? (sync ? lastNodeEndAt(done.started) : Date.now()) : 0;
  if (run.observer.event) {
    run.observer.event({
      type: 'step-end',
      runId: run.runId,
      ts: now,
      path: run.path,
      step: loop.step,
      durationMs: now - done.started,
      values: loop.values,
    });
  }
  const shown =
    run.observer.values && topology.state
      ? run.observer.values(loop.values, run.path)
      : run.observer.pace?.();
  // A function is made only when the observer made the step wait (a synchronous step allocates none).
  return shown ? shown.then(() => saveStep(loop, done, now)) : saveStep(loop, done, now);
}

/** Hands the step to `afterStep` (checkpoints), then counts it done, ended at `endedAt`. */
function saveStep(loop: LoopView, done: StepDone, endedAt: number): Promise<void> | undefined {
  const saved = loop.hooks.afterStep?.(loop, { writes: done.writes.records, changed: done.changed });
  if (saved) return saved.then(() => loop.stepDone(endedAt));
  loop.stepDone(endedAt);
  return undefined;
}
