import { CheckpointConflictError } from '../errors/checkpoint-conflict-error.js';
import { WeftError } from '../errors/weft-error.js';
import type { CheckpointRecord, JsonValue } from './checkpointer.js';

/**
 * The error a store's `put` throws when the record's `seq` is already taken in its thread and namespace:
 * another writer stored a checkpoint over the same head first. Every store reports it alike.
 *
 * @example
 * ```ts
 * if (seqTaken(record)) throw seqTakenError(record);
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
 * The error a store's `claimThread` throws when a live writer holds the thread.
 *
 * @example
 * ```ts
 * if (claims.has(threadId)) throw threadClaimedError(threadId);
 * ```
 */
export function threadClaimedError(threadId: string, holder?: string): CheckpointConflictError {
  const by = holder === undefined ? '' : ` (by ${holder})`;
  return new CheckpointConflictError(threadId, '', `is being written by another run${by}`);
}

/**
 * Parses a checkpoint's stored metadata JSON, failing with a typed error naming the checkpoint (instead of
 * a bare `SyntaxError`) when a store holds text that is not a JSON object.
 *
 * @throws {WeftError} code `CHECKPOINT` naming the thread, namespace and checkpoint.
 * @example
 * ```ts
 * const metadata = parseCheckpointMetadata(row.metadata, { threadId: row.thread_id, ns: row.ns, id: row.id });
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
  throw new WeftError(
    'CHECKPOINT',
    `checkpoint "${where.id}" of thread "${where.threadId}"${where.ns === '' ? '' : ` (namespace "${where.ns}")`} has corrupt metadata: ${cause === undefined ? 'not a JSON object' : (cause as Error).message}`,
    { cause },
  );
}
