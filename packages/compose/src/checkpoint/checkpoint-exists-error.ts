import { WeftError } from '../errors/weft-error.js';
import type { CheckpointRecord } from './checkpointer.js';

/**
 * The error every checkpointer throws when `put` gets an id its thread and namespace already hold, so
 * all stores report it alike (code `CHECKPOINT`).
 *
 * @example
 * ```ts
 * const stored = new Set(['cp-7']); // the ids a store already holds
 * const record = { id: 'cp-7', threadId: 'thread-1', ns: '' };
 * if (stored.has(record.id)) throw checkpointExistsError(record); // WeftError CHECKPOINT naming cp-7
 * ```
 */
export function checkpointExistsError(
  record: Pick<CheckpointRecord, 'id' | 'threadId' | 'ns'>,
  cause?: unknown,
): WeftError {
  return new WeftError(
    'CHECKPOINT',
    `checkpoint "${record.id}" already exists in thread "${record.threadId}" (namespace "${record.ns}"); checkpoint ids must be unique`,
    { cause },
  );
}
