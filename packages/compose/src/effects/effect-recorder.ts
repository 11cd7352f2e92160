import type { Checkpointer, TaskWritesRecord } from '../checkpoint/checkpointer.js';
import { checkFence, type EffectFence } from './effect-fence.js';

/**
 * A store capability: a checkpointer that records an effect's result itself, checking `fence` in the
 * same write (a claim or epoch compared inside its transaction), so no writer that lost the thread can
 * slip a record in between the check and the write. Stores without it get the engine's way: the fence
 * is checked, then the record is stored with `putWrites`.
 *
 * @example
 * ```ts
 * const checkpointer = new MemoryCheckpointer();
 * const recorder: EffectRecorder = {
 *   async recordEffect(record, fence) {
 *     await fence?.check(); // a database store checks its epoch in the INSERT's transaction instead
 *     await checkpointer.putWrites(record);
 *   },
 * };
 * ```
 */
export interface EffectRecorder {
  /**
   * Stores an effect's record (a task write of kind `call` against the checkpoint its step started
   * from) only while `fence` holds.
   *
   * @throws WeftError `EFFECT_FENCED` when the fence no longer holds (nothing is stored).
   */
  recordEffect(record: TaskWritesRecord, fence: EffectFence | undefined): Promise<void>;
}

/** True when `checkpointer` records effects itself (see {@link EffectRecorder}). */
export function isEffectRecorder(checkpointer: Checkpointer): checkpointer is Checkpointer & EffectRecorder {
  return typeof (checkpointer as Partial<EffectRecorder>).recordEffect === 'function';
}

/** Where an effect record comes from, for the fenced error's message. */
export interface EffectWhere {
  readonly node: string;
  readonly effect: string;
}

/** The fence an effect record is stored under, and where the effect ran (for the error). */
export interface EffectFencing {
  readonly fence: EffectFence | undefined;
  readonly where: EffectWhere;
}

/**
 * Stores one effect record: through the store's own {@link EffectRecorder} when it has one, else the
 * fence is checked and the record put with `putWrites`.
 *
 * @throws WeftError `EFFECT_FENCED` when the fence no longer holds.
 */
export async function storeEffect(
  checkpointer: Checkpointer,
  record: TaskWritesRecord,
  fenced: EffectFencing,
): Promise<void> {
  if (isEffectRecorder(checkpointer)) return checkpointer.recordEffect(record, fenced.fence);
  await checkFence(fenced.fence, fenced.where);
  await checkpointer.putWrites(record);
}
