import type { PausedWrite, TaskWrite } from './checkpoint-body.js';
import type { LoadedCheckpoint } from './load.js';

/**
 * The pauses stored against a checkpoint, by task id: a run that continues from it stores the outputs of
 * the tasks that answer them under the same ids, keeping each pause in its output (`answered`).
 * `undefined` when none paused.
 */
export function pausesOf(loaded: LoadedCheckpoint): ReadonlyMap<string, PausedWrite> | undefined {
  let pauses: Map<string, PausedWrite> | undefined;
  for (const [taskId, write] of loaded.taskWrites)
    if (write.kind === 'paused') (pauses ??= new Map()).set(taskId, write);
  return pauses;
}

/**
 * A checkpoint as time travel sees it (a fork, a read by id): the outputs of tasks that answered one of
 * its pauses later are that pause again, so a fork from it asks the question anew (and a
 * `Command({ resume })` answers it). The same object when nothing was answered.
 */
export function reopenPauses(loaded: LoadedCheckpoint): LoadedCheckpoint {
  let writes: Map<string, TaskWrite> | undefined;
  for (const [taskId, write] of loaded.taskWrites) {
    if (write.kind !== 'output' || write.answered === undefined) continue;
    writes ??= new Map(loaded.taskWrites);
    writes.set(taskId, write.answered);
  }
  return writes ? { ...loaded, taskWrites: writes } : loaded;
}
