import { CheckpointConflictError } from '../errors/checkpoint-conflict-error.js';
import { CheckpointCorruptError } from '../errors/checkpoint-corrupt-error.js';
import type { WeftError } from '../errors/weft-error.js';
import { checkpointExistsError } from './checkpoint-exists-error.js';
import type { CheckpointRecord, JsonValue } from './checkpointer.js';

/**
 * The error a store's `put` throws when the record's `seq` is already taken in its thread and namespace:
 * another writer stored a checkpoint over the same head first. Every store reports it alike.
 *
 * @example
 * ```ts
 * const error = seqTakenError({ id: 'cp-7', threadId: 'thread-1', ns: '', seq: 4 });
 * error.message; // names thread-1 and says position 4 is taken, so checkpoint "cp-7" could not be stored
 * ```
 */
export function seqTakenError(
  record: Pick<CheckpointRecord, 'id' | 'threadId' | 'ns' | 'seq'>,
  cause?: unknown,
): CheckpointConflictError {
  return new CheckpointConflictError(
    record.threadId,
    record.ns,
    `already has a checkpoint at position ${record.seq}: another writer moved its head before checkpoint "${record.id}" could be stored`,
    { cause },
  );
}

/**
 * The error for a `put` refused by the unique `seq` of its thread and namespace, told apart the same way
 * by every store: when the record's id is stored there too it is the duplicate id (a repeated id usually
 * repeats its seq, and the duplicate is the mistake to report), otherwise another writer moved the head.
 *
 * @example
 * ```ts
 * const record = { threadId: 't1', ns: '', id: 'c7', seq: 7 };
 * const stored = new Set(['c5', 'c6']); // the ids of the thread, as the store finds them
 * const error = seqConflictError(record, stored.has(record.id)); // another writer moved the head
 * error instanceof CheckpointConflictError; // true
 * ```
 */
export function seqConflictError(
  record: Pick<CheckpointRecord, 'id' | 'threadId' | 'ns' | 'seq'>,
  idTaken: boolean,
  cause?: unknown,
): WeftError {
  return idTaken ? checkpointExistsError(record, cause) : seqTakenError(record, cause);
}

/**
 * The error a store's `claimThread` throws when a live writer holds the thread.
 *
 * @example
 * ```ts
 * const claims = new Map([['thread-1', 'worker-a']]); // thread → the writer holding it
 * const holder = claims.get('thread-1');
 * if (holder !== undefined) throw threadClaimedError('thread-1', holder); // "… is being written by another run (by worker-a)"
 * ```
 */
export function threadClaimedError(threadId: string, holder?: string): CheckpointConflictError {
  const by = holder === undefined ? '' : ` (by ${holder})`;
  return new CheckpointConflictError(threadId, '', `is being written by another run${by}`);
}

/**
 * The error a store reports when a writer's claim on a thread is gone: its lock connection died, or
 * another writer took the thread over (a higher epoch). The holder's run stops before its next step, and
 * its writes are refused; the thread continues under the new claim.
 *
 * @example
 * ```ts
 * const stored: number = 8; // the thread's epoch as the store has it
 * const mine: number = 7; // the epoch this writer claimed the thread with
 * if (stored !== mine) throw claimLostError('thread-1', `epoch ${mine} was superseded by ${stored}`);
 * ```
 */
export function claimLostError(threadId: string, reason: string, cause?: unknown): CheckpointConflictError {
  return new CheckpointConflictError(
    threadId,
    '',
    `lost its claim (${reason}): another writer may hold it now`,
    {
      cause,
    },
  );
}

/**
 * Parses a checkpoint's stored metadata JSON, failing with a typed error naming the checkpoint (instead of
 * a bare `SyntaxError`) when a store holds text that is not a JSON object.
 *
 * @throws {CheckpointCorruptError} kind `encoding`, naming the thread, namespace and checkpoint.
 * @example
 * ```ts
 * const row = { thread_id: 'thread-1', ns: '', id: 'cp-7', metadata: '{"source":"loop","step":2}' }; // a stored row
 * const metadata = parseCheckpointMetadata(row.metadata, { threadId: row.thread_id, ns: row.ns, id: row.id });
 * metadata.step; // 2
 * parseCheckpointMetadata('[1]', { threadId: 'thread-1', ns: '', id: 'cp-8' }); // throws CheckpointCorruptError naming cp-8
 * ```
 */
export function parseCheckpointMetadata(
  json: string,
  where: Pick<CheckpointRecord, 'id' | 'threadId' | 'ns'>,
): Record<string, JsonValue> {
  let parsed: unknown;
  let cause: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    cause = error;
  }
  if (cause === undefined && typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
    return parsed as Record<string, JsonValue>;
  throw new CheckpointCorruptError({
    record: { threadId: where.threadId, ns: where.ns, checkpointId: where.id },
    kind: 'encoding',
    reason: `its metadata is ${cause === undefined ? 'not a JSON object' : `not JSON (${(cause as Error).message})`}`,
    cause,
  });
}
