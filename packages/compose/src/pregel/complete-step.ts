import { timeSince } from '../events/event-clock.js';
import { isPromiseLike } from '../runnable/runnable.js';
import type { LoopView } from './loop-hooks.js';
import { type Finished, planNext } from './plan.js';
import { applyTasks, type StepWrites, streamUpdates } from './step-writes.js';

/**
 * Completes a step that ran to the end: applies its writes, streams them, plans the next step, reports
 * `step-end` and the values, and hands the step to `afterStep` (checkpoints). Returns a promise only when
 * routing, an observer or a hook is asynchronous, so synchronous steps never await. `mark` is the event
 * clock's mark from before the step's tasks ran, given when they all ran without awaiting: a step that
 * stays synchronous to its end takes its last node's clock read as its end time (see `event-clock.ts`).
 */
export function completeStep(
  loop: LoopView,
  outputs: unknown[],
  started: number,
  mark: number | undefined,
): Promise<void> | undefined {
  const { finished, writes, changed } = applyTasks(loop, loop.tasks, outputs);
  const streaming = loop.run.observer.updates ? streamUpdates(loop.run, writes) : undefined;
  if (streaming) {
    const done: StepDone = { writes, changed, started, mark: undefined };
    return streaming.then(() => route(loop, finished, done));
  }
  return route(loop, finished, { writes, changed, started, mark });
}

/** What a completed step hands on to its end. */
interface StepDone {
  readonly writes: StepWrites;
  readonly changed: readonly string[];
  readonly started: number;
  /** The event clock's mark while the step has not awaited since its tasks ran (see `completeStep`). */
  readonly mark: number | undefined;
}

function route(loop: LoopView, finished: Finished[], done: StepDone): Promise<void> | undefined {
  const planned = planNext(
    { topology: loop.topology, routing: loop.routing, routerInput: loop.routerInput, step: loop.prefix() },
    finished,
  );
  if (isPromiseLike(planned)) {
    return planned.then((tasks) => {
      loop.planned(tasks);
      return finishStep(loop, { ...done, mark: undefined });
    });
  }
  loop.planned(planned);
  return finishStep(loop, done);
}

function finishStep(loop: LoopView, done: StepDone): Promise<void> | undefined {
  const { run, topology } = loop;
  const { mark } = done;
  const now = run.observer.event ? (mark === undefined ? Date.now() : timeSince(mark)) : 0;
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
  const save = (): Promise<void> | undefined => {
    const saved = loop.hooks.afterStep?.(loop, { writes: done.writes.records, changed: done.changed });
    if (saved) return saved.then(() => loop.stepDone(now));
    loop.stepDone(now);
    return undefined;
  };
  return shown ? shown.then(save) : save();
}
