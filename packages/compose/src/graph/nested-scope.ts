import type { RunEvent } from '../events/run-event.js';
import { type RunContext, type RunObserver, runObserver } from '../pregel/run-context.js';

/**
 * The scope of a nested run: its parent run's scope, then `/` and the task it runs in, then `#` and
 * its `runSubgraph` key when it has one. Parallel nested runs at one node path (two agent tools called
 * in one turn, or one called twice) get different scopes, where their paths and task ids coincide.
 *
 * @example
 * nestedScope(undefined, 'step:3:tools:0', 'call_1'); // '/step:3:tools:0#call_1'
 * nestedScope('/a', 'b', undefined); // '/a/b'
 */
export function nestedScope(parent: string | undefined, taskId: string, key: string | undefined): string {
  return `${parent ?? ''}/${taskId}${key === undefined ? '' : `#${key}`}`;
}

/**
 * The observer of a nested run: its parent's, with every event stamped with the nested run's `scope`
 * (an event already stamped by a run nested deeper keeps its own). Without an event listener it is
 * the parent's observer as is (no event is ever built).
 */
export function scopedObserver(observer: RunObserver, scope: string): RunObserver {
  const listener = observer.event;
  if (!listener) return observer;
  return runObserver({
    ...observer,
    event: (event: RunEvent) => listener(stamped(event, scope)),
  });
}

/**
 * `event` stamped with `scope` (an event already stamped deeper keeps its own). `Object.assign` onto a
 * new object, not a spread: a spread's copy got a new hidden class in every nested run (a probe build
 * showed two runs' stamped `node-end` events on different maps), so a consumer's every read of a
 * nested event went megamorphic; assigned properties follow V8's shared transitions.
 */
function stamped(event: RunEvent, scope: string): RunEvent {
  return event.scope === undefined ? Object.assign({}, event, { scope }) : event;
}

/** The owner (task, key and scope) of a nested run started from the task `taskId` of `run`. */
export function nestedOwner(
  run: RunContext,
  taskId: string,
  key: string | undefined,
): NonNullable<RunContext['owner']> {
  const scope = nestedScope(run.owner?.scope, taskId, key);
  return key === undefined ? { taskId, scope } : { taskId, key, scope };
}
