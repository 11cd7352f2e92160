import { WeftError } from '../errors/weft-error.js';
import type { CheckpointRecord } from './checkpointer.js';

/**
 * The error every checkpointer throws when `put` gets an id its thread and namespace already hold, so
 * all stores report it alike (code `CHECKPOINT`).
 *
 * @example
 * ```ts
 * if (rows.has(record.id)) throw checkpointExistsError(record);
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
