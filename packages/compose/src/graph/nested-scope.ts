import type { RunEvent } from '../events/run-event.js';
import type { RunContext, RunObserver } from '../pregel/run-context.js';

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
  return {
    ...observer,
    event: (event: RunEvent) => listener(event.scope === undefined ? { ...event, scope } : event),
  };
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
