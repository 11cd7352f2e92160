import { parseCheckpointMetadata } from './checkpoint-conflicts.js';
import type { CheckpointRecord, CheckpointSource, JsonValue, TaskWritesRecord } from './checkpointer.js';

/**
 * The columns of a checkpoint row in a SQL store, in the order of {@link checkpointRowValues}: the
 * names every Weft SQL store gives them, so an `INSERT (${CHECKPOINT_COLUMNS}) VALUES (…)` and the values
 * line up in one place.
 *
 * @example
 * ```ts
 * const columns = CHECKPOINT_COLUMNS.split(', '); // ['thread_id', 'ns', 'id', 'seq', …, 'checksum']
 * const insert = `INSERT INTO weft_checkpoints (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
 * ```
 */
export const CHECKPOINT_COLUMNS =
  'thread_id, ns, id, seq, parent_id, base_id, step, source, created_at, metadata, payload, checksum';

/** The columns of a task-writes row, in the order of {@link taskWritesRowValues}. */
export const TASK_WRITES_COLUMNS = 'thread_id, ns, checkpoint_id, task_id, payload, checksum';

/**
 * A checkpoint as a SQL store reads it back: the columns of {@link CHECKPOINT_COLUMNS}. `metadata` is the
 * stored JSON text, or the object a driver already parsed (a `jsonb` column).
 */
export interface CheckpointRow {
  readonly thread_id: string;
  readonly ns: string;
  readonly id: string;
  readonly seq: number;
  readonly parent_id: string | null;
  readonly base_id: string;
  readonly step: number;
  readonly source: string;
  readonly created_at: string;
  readonly metadata: string | Readonly<Record<string, JsonValue>>;
  readonly payload: string;
  readonly checksum: string | null;
}

/** A task-writes row as a SQL store reads it back: the columns of {@link TASK_WRITES_COLUMNS}. */
export interface TaskWritesRow {
  readonly thread_id: string;
  readonly ns: string;
  readonly checkpoint_id: string;
  readonly task_id: string;
  readonly payload: string;
  readonly checksum: string | null;
}

/**
 * The values of a checkpoint row, in the order of {@link CHECKPOINT_COLUMNS}: metadata as JSON text, a
 * missing checksum as `null`.
 *
 * @example
 * ```ts
 * const record: CheckpointRecord = {
 *   threadId: 't1', ns: '', id: 'c1', seq: 1, parentId: null, baseId: 'c1', step: -1,
 *   source: 'input', createdAt: '2026-12-01T00:00:00.000Z', metadata: { user: 'u1' }, payload: '{}',
 * };
 * checkpointRowValues(record);
 * // ['t1', '', 'c1', 1, null, 'c1', -1, 'input', '2026-12-01T00:00:00.000Z', '{"user":"u1"}', '{}', null]
 * ```
 */
export function checkpointRowValues(record: CheckpointRecord): unknown[] {
  return [
    record.threadId,
    record.ns,
    record.id,
    record.seq,
    record.parentId,
    record.baseId,
    record.step,
    record.source,
    record.createdAt,
    JSON.stringify(record.metadata),
    record.payload,
    record.checksum ?? null,
  ];
}

/**
 * The values of a task-writes row, in the order of {@link TASK_WRITES_COLUMNS} (a missing checksum as
 * `null`).
 *
 * @example
 * ```ts
 * taskWritesRowValues({ threadId: 't1', ns: '', checkpointId: 'c1', taskId: 'k1', payload: '[]' });
 * // ['t1', '', 'c1', 'k1', '[]', null]
 * ```
 */
export function taskWritesRowValues(record: TaskWritesRecord): unknown[] {
  return [
    record.threadId,
    record.ns,
    record.checkpointId,
    record.taskId,
    record.payload,
    record.checksum ?? null,
  ];
}

/**
 * The record of a stored checkpoint row: metadata text is parsed (a row whose metadata is not a JSON
 * object fails naming the checkpoint), a `null` checksum (a row older than checksums) is left out.
 *
 * @throws {WeftError} code `CHECKPOINT` when the metadata text is not a JSON object.
 * @example
 * ```ts
 * const record = checkpointFromRow({
 *   thread_id: 't1', ns: '', id: 'c1', seq: 1, parent_id: null, base_id: 'c1', step: -1, source: 'input',
 *   created_at: '2026-12-01T00:00:00.000Z', metadata: '{"user":"u1"}', payload: '{}', checksum: null,
 * });
 * record.metadata; // { user: 'u1' } (and no `checksum` key)
 * ```
 */
export function checkpointFromRow(row: CheckpointRow): CheckpointRecord {
  const metadata =
    typeof row.metadata === 'string'
      ? parseCheckpointMetadata(row.metadata, { threadId: row.thread_id, ns: row.ns, id: row.id })
      : row.metadata;
  return {
    threadId: row.thread_id,
    ns: row.ns,
    id: row.id,
    seq: row.seq,
    parentId: row.parent_id,
    baseId: row.base_id,
    step: row.step,
    source: row.source as CheckpointSource,
    createdAt: row.created_at,
    metadata,
    payload: row.payload,
    ...(row.checksum === null ? {} : { checksum: row.checksum }),
  };
}

/**
 * The record of a stored task-writes row (a `null` checksum left out).
 *
 * @example
 * ```ts
 * const rows: TaskWritesRow[] = [
 *   { thread_id: 't1', ns: '', checkpoint_id: 'c1', task_id: 'k1', payload: '[]', checksum: null },
 * ];
 * const writes = rows.map(taskWritesFromRow); // [{ threadId: 't1', ns: '', checkpointId: 'c1', taskId: 'k1', payload: '[]' }]
 * ```
 */
export function taskWritesFromRow(row: TaskWritesRow): TaskWritesRecord {
  return {
    threadId: row.thread_id,
    ns: row.ns,
    checkpointId: row.checkpoint_id,
    taskId: row.task_id,
    payload: row.payload,
    ...(row.checksum === null ? {} : { checksum: row.checksum }),
  };
}
