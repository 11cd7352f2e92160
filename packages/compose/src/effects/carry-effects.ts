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
