import {
  CHECKPOINT_COLUMNS,
  type CheckpointRecord,
  claimLostError,
  seqConflictError,
  TASK_WRITES_COLUMNS,
  type TaskWritesRecord,
} from '@weft/compose/store';
import type { QueryConfig, QueryResult, QueryResultRow } from 'pg';
import type { PostgresTables } from './postgres-schema.js';

/** One write of a group commit: a checkpoint or a task's writes. */
export type GroupedPut =
  | { readonly kind: 'checkpoint'; readonly record: CheckpointRecord; readonly epoch?: number | undefined }
  | { readonly kind: 'writes'; readonly record: TaskWritesRecord; readonly epoch?: number | undefined };

/** Runs one statement (the checkpointer's query, which names missing tables). */
export type RunQuery = <TRow extends QueryResultRow>(config: QueryConfig) => Promise<QueryResult<TRow>>;

interface InsertedRow {
  /** `c` for a checkpoint, `w` for a task's writes. */
  kind: 'c' | 'w';
  thread_id: string;
  ns: string;
  /** The checkpoint's id (for writes: the checkpoint they were saved against). */
  id: string;
  /** The checkpoint's position; for writes, the task id. */
  seq: string;
}

/**
 * The one statement that stores a batch: every task write (upserted, as `putWrites` does) and every
 * checkpoint, from arrays (`unnest`), so it is one prepared statement whatever the batch size. One
 * statement is one transaction and one commit. Checkpoints use `ON CONFLICT DO NOTHING`: a row that
 * collides with a stored one (its id or its position) is skipped, not failed, so the others commit. A row
 * with an epoch (its writer holds the thread's claim) goes in only while the thread still has that epoch
 * (the write fence of ADR 030). `RETURNING` tells which went in.
 */
function groupPutText({ checkpoints, writes, threadClaims }: PostgresTables): string {
  const fence = (row: string) =>
    `(${row}.epoch IS NULL OR EXISTS (SELECT 1 FROM ${threadClaims} f WHERE f.thread_id = ${row}.thread_id AND f.epoch = ${row}.epoch FOR SHARE))`;
  return `WITH stored_writes AS (
    INSERT INTO ${writes} (${TASK_WRITES_COLUMNS})
    SELECT w.thread_id, w.ns, w.checkpoint_id, w.task_id, w.payload, w.checksum
    FROM unnest($13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[], $20::bigint[])
      AS w(thread_id, ns, checkpoint_id, task_id, payload, checksum, epoch)
    WHERE ${fence('w')}
    ON CONFLICT (thread_id, ns, checkpoint_id, task_id)
    DO UPDATE SET payload = EXCLUDED.payload, checksum = EXCLUDED.checksum
    RETURNING 'w' AS kind, thread_id, ns, checkpoint_id AS id, task_id AS seq
  ), stored_checkpoints AS (
    INSERT INTO ${checkpoints} (${CHECKPOINT_COLUMNS})
    SELECT u.thread_id, u.ns, u.id, u.seq, u.parent_id, u.base_id, u.step, u.source, u.created_at, u.metadata::jsonb, u.payload, u.checksum
    FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::int[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $19::bigint[])
      AS u(thread_id, ns, id, seq, parent_id, base_id, step, source, created_at, metadata, payload, checksum, epoch)
    WHERE ${fence('u')}
    ON CONFLICT DO NOTHING
    RETURNING 'c' AS kind, thread_id, ns, id, seq::text AS seq
  )
  SELECT * FROM stored_writes UNION ALL SELECT * FROM stored_checkpoints`;
}

/**
 * Stores a batch of puts in one transaction and returns, per put in order, its error (`undefined` when
 * it committed). A checkpoint whose id or position is taken fails alone, with the error a single `put`
 * gives (`CHECKPOINT` for an existing id, `CheckpointConflictError` for a taken position); the rest of
 * the batch commits. Task writes for one key keep the last of the batch, as sequential upserts would.
 *
 * @throws the statement's error (connection lost, missing tables): it fails every put of the batch.
 */
export async function commitGroupedPuts(
  query: RunQuery,
  tables: PostgresTables,
  statementName: string,
  puts: readonly GroupedPut[],
): Promise<(Error | undefined)[]> {
  const checkpoints: CheckpointRecord[] = [];
  const checkpointEpochs: (number | null)[] = [];
  const writes = new Map<string, { record: TaskWritesRecord; epoch: number | null }>();
  for (const put of puts) {
    if (put.kind === 'checkpoint') {
      checkpoints.push(put.record);
      checkpointEpochs.push(put.epoch ?? null);
    } else {
      const { threadId, ns, checkpointId, taskId } = put.record;
      writes.set(JSON.stringify([threadId, ns, checkpointId, taskId]), {
        record: put.record,
        epoch: put.epoch ?? null,
      });
    }
  }
  const writeRows = [...writes.values()].map((write) => write.record);
  const { rows } = await query<InsertedRow>({
    name: statementName,
    text: groupPutText(tables),
    values: [
      checkpoints.map((record) => record.threadId),
      checkpoints.map((record) => record.ns),
      checkpoints.map((record) => record.id),
      checkpoints.map((record) => record.seq),
      checkpoints.map((record) => record.parentId),
      checkpoints.map((record) => record.baseId),
      checkpoints.map((record) => record.step),
      checkpoints.map((record) => record.source),
      checkpoints.map((record) => record.createdAt),
      checkpoints.map((record) => JSON.stringify(record.metadata)),
      checkpoints.map((record) => record.payload),
      checkpoints.map((record) => record.checksum ?? null),
      writeRows.map((record) => record.threadId),
      writeRows.map((record) => record.ns),
      writeRows.map((record) => record.checkpointId),
      writeRows.map((record) => record.taskId),
      writeRows.map((record) => record.payload),
      writeRows.map((record) => record.checksum ?? null),
      checkpointEpochs,
      [...writes.values()].map((write) => write.epoch),
    ],
  });
  const inserted = new Set(
    rows.map((row) => JSON.stringify([row.kind, row.thread_id, row.ns, row.id, String(row.seq)])),
  );
  return Promise.all(
    puts.map(async (put) => {
      if (put.kind === 'writes') {
        const { threadId, ns, checkpointId, taskId } = put.record;
        if (
          put.epoch === undefined ||
          inserted.has(JSON.stringify(['w', threadId, ns, checkpointId, taskId]))
        )
          return undefined;
        return claimLostError(threadId, `epoch ${put.epoch}, the thread was claimed again since`);
      }
      const { threadId, ns, id, seq } = put.record;
      // Two puts of one id and position in one batch: the first goes in, the second is a duplicate.
      if (inserted.delete(JSON.stringify(['c', threadId, ns, id, String(seq)]))) return undefined;
      if (put.epoch !== undefined && !(await epochHolds(query, tables, threadId, put.epoch)))
        return claimLostError(threadId, `epoch ${put.epoch}, the thread was claimed again since`);
      // A failed look-up fails this put alone: the others committed.
      return rejectionOf(query, tables, put.record).catch((error: unknown) =>
        error instanceof Error ? error : new Error(String(error)),
      );
    }),
  );
}

/** Why a checkpoint was skipped: its id exists (a duplicate), or else its position was taken. */
async function rejectionOf(
  query: RunQuery,
  tables: PostgresTables,
  record: CheckpointRecord,
): Promise<Error> {
  const { rowCount } = await query({
    text: `SELECT 1 FROM ${tables.checkpoints} WHERE thread_id = $1 AND ns = $2 AND id = $3`,
    values: [record.threadId, record.ns, record.id],
  });
  const cause = new Error(`the group commit skipped checkpoint "${record.id}" (ON CONFLICT DO NOTHING)`);
  return seqConflictError(record, (rowCount ?? 0) > 0, cause);
}

/** True while the thread's claim epoch is still `epoch` (a skipped checkpoint then lost on its position). */
async function epochHolds(
  query: RunQuery,
  tables: PostgresTables,
  threadId: string,
  epoch: number,
): Promise<boolean> {
  const { rowCount } = await query({
    text: `SELECT 1 FROM ${tables.threadClaims} WHERE thread_id = $1 AND epoch = $2`,
    values: [threadId, epoch],
  });
  return (rowCount ?? 0) > 0;
}
