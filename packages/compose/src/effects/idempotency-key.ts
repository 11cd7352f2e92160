import { payloadChecksum } from '../checkpoint/payload-checksum.js';

/** What identifies one effect of one task, the same on every re-run of that task. */
export interface EffectIdentity {
  /** The thread (or, in a run without a checkpointer, the run id). */
  readonly threadId: string;
  /** The graph's namespace (`''` for the root graph). */
  readonly ns: string;
  /** The checkpoint the task's step started from. */
  readonly checkpointId: string;
  /** The task's deterministic id within that step. */
  readonly taskId: string;
  /** The effect's key within the task (its name and position, or the key given). */
  readonly key: string;
}

/**
 * The idempotency key of an effect: `weft-` and 40 hex digits of the SHA-256 of its identity. The same on
 * every re-run of the task from the same checkpoint (a crash, a retry, a lost lease, a resume), different
 * for every other effect; short enough for every API that takes one (Stripe allows 255 characters).
 */
export function idempotencyKeyOf(identity: EffectIdentity): string {
  const { threadId, ns, checkpointId, taskId, key } = identity;
  const text = JSON.stringify([threadId, ns, checkpointId, taskId, key]);
  return `weft-${payloadChecksum(text).slice(7, 47)}`;
}
