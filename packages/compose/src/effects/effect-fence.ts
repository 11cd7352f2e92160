import { WeftError } from '../errors/weft-error.js';

/**
 * What a writer must still hold for its effects to be recorded: a worker's lease on the thread, a
 * store's claim or epoch. The engine checks it right before it records an effect's result; a store that
 * records effects itself (an {@link EffectRecorder}) checks it inside its own write instead. Give one to
 * a run as `RunOptions.fence` (the worker does, from its thread lease).
 *
 * @example
 * ```ts
 * let leaseHeld = true; // e.g. cleared by the lease's renewal when another worker took the thread
 * const fence: EffectFence = {
 *   async check() {
 *     if (!leaseHeld) throw new Error('the lease of thread "order-17" was taken over');
 *   },
 * };
 * ```
 */
export interface EffectFence {
  /** Resolves while this writer still owns the thread; rejects (with the reason) once it does not. */
  check(): Promise<void>;
}

/**
 * The error of an effect whose result could not be recorded because its writer no longer owns the
 * thread (its lease or claim was lost): the effect may have happened outside, but it is not recorded,
 * and the task fails instead of going on as if it counted. The run that owns the thread now runs the
 * task again with the same idempotency key.
 *
 * @example
 * ```ts
 * function isFenced(error: unknown): boolean {
 *   return WeftError.isInstance(error) && error.code === 'EFFECT_FENCED';
 * }
 * ```
 */
export function effectFencedError(where: { readonly node: string; readonly effect: string }, cause: unknown) {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new WeftError(
    'EFFECT_FENCED',
    `effect "${where.effect}" of node "${where.node}" ran, but this run no longer owns its thread (${reason}), so its result was not recorded; the run that owns the thread repeats it with the same idempotency key`,
    { cause },
  );
}

/** Checks `fence`, turning a failed check into {@link effectFencedError}. */
export async function checkFence(
  fence: EffectFence | undefined,
  where: { readonly node: string; readonly effect: string },
): Promise<void> {
  if (!fence) return;
  try {
    await fence.check();
  } catch (cause) {
    throw effectFencedError(where, cause);
  }
}
