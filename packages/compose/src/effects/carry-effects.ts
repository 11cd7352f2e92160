import type { TaskWrite } from '../checkpoint/checkpoint-body.js';
import type { Task } from '../pregel/task.js';
import { EFFECT_KEY_PREFIX } from './run-effect.js';

/**
 * A replay from an older checkpoint runs its next step again under new task ids (so outputs the other
 * branch stored are not reused), but an effect that step's tasks recorded happened in the world and
 * must not happen again: the recorded effects of each task are carried to the task that replaces it
 * (same node, same position), into `memo` (restored `ctx.once` results by task id). A fork made with
 * `updateState` starts from a new checkpoint that has no records, so its effects run again — that is
 * how a user asks for them.
 */
export function carryEffects(
  memo: Map<string, ReadonlyMap<string, unknown>>,
  before: readonly Task[],
  after: readonly Task[],
): void {
  before.forEach((task, position) => {
    const renewed = after[position];
    if (!renewed || renewed.id === task.id) return;
    const remembered = memo.get(task.id);
    if (!remembered) return;
    const effects = [...remembered].filter(([key]) => key.startsWith(EFFECT_KEY_PREFIX));
    if (effects.length === 0) return;
    memo.set(renewed.id, new Map([...(memo.get(renewed.id) ?? []), ...effects]));
  });
}

/**
 * DAG mode restores a node by its index, not by a task of a planned step: the effect records of every
 * node that has not finished go into its memo (restored `ctx.once` results by node index), on a crash
 * resume and on a replay alike — a replay runs the node again, but not its recorded effects.
 */
export function dagEffectMemo(
  writes: ReadonlyMap<string, TaskWrite>,
  nodeIndex: (name: string) => number | undefined,
  memo: Map<number, ReadonlyMap<string, unknown>>,
): void {
  for (const write of writes.values()) {
    if (write.kind !== 'call' || !write.key.startsWith(EFFECT_KEY_PREFIX)) continue;
    const index = nodeIndex(write.node);
    if (index === undefined) continue;
    memo.set(index, new Map([...(memo.get(index) ?? []), [write.key, write.output]]));
  }
}
