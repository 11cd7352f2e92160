import { describe, expect, it } from 'vitest';
import { CheckpointConflictError } from '../errors/checkpoint-conflict-error.js';
import { WeftError } from '../errors/weft-error.js';
import { seqConflictError } from './checkpoint-conflicts.js';
import {
  CHECKPOINT_COLUMNS,
  type CheckpointRow,
  checkpointFromRow,
  checkpointRowValues,
  TASK_WRITES_COLUMNS,
  taskWritesFromRow,
  taskWritesRowValues,
} from './checkpoint-rows.js';
import type { CheckpointRecord, TaskWritesRecord } from './checkpointer.js';

const record: CheckpointRecord = {
  threadId: 't1',
  ns: 'outer:1',
  id: 'c2',
  seq: 2,
  parentId: 'c1',
  baseId: 'c1',
  step: 0,
  source: 'loop',
  createdAt: '2026-12-01T00:00:00.000Z',
  metadata: { tags: ['a'], n: 1 },
  payload: '{"values":{}}',
  checksum: 'sha256:abc',
};

/** The row a SQL store would hold for `values` written under `columns`. */
function rowOf(columns: string, values: unknown[]): Record<string, unknown> {
  return Object.fromEntries(columns.split(', ').map((column, index) => [column, values[index]]));
}

describe('checkpoint rows', () => {
  it('round-trip a record through the column order, metadata as text or as a parsed object', () => {
    const row = rowOf(CHECKPOINT_COLUMNS, checkpointRowValues(record)) as unknown as CheckpointRow;
    expect(row.metadata).toBe('{"tags":["a"],"n":1}');
    expect(checkpointFromRow(row)).toEqual(record);
    expect(checkpointFromRow({ ...row, metadata: { tags: ['a'], n: 1 } })).toEqual(record);
  });

  it('store a missing checksum as null and leave a null checksum out', () => {
    const { checksum: _, ...old } = record;
    const values = checkpointRowValues(old);
    expect(values.at(-1)).toBeNull();
    const restored = checkpointFromRow(rowOf(CHECKPOINT_COLUMNS, values) as unknown as CheckpointRow);
    expect('checksum' in restored).toBe(false);
    expect(restored).toEqual(old);
  });

  it('fail naming the checkpoint when the metadata text is not a JSON object', () => {
    const row = rowOf(CHECKPOINT_COLUMNS, checkpointRowValues(record)) as unknown as CheckpointRow;
    expect(() => checkpointFromRow({ ...row, metadata: '[1]' })).toThrow(/checkpoint "c2" of thread "t1"/);
  });

  it('round-trip task writes, with and without a checksum', () => {
    const writes: TaskWritesRecord = {
      threadId: 't1',
      ns: '',
      checkpointId: 'c1',
      taskId: 'k',
      payload: '[]',
    };
    const row = rowOf(TASK_WRITES_COLUMNS, taskWritesRowValues(writes));
    expect(row.checksum).toBeNull();
    expect(taskWritesFromRow(row as never)).toEqual(writes);
    const checked = { ...writes, checksum: 'sha256:def' };
    expect(taskWritesFromRow(rowOf(TASK_WRITES_COLUMNS, taskWritesRowValues(checked)) as never)).toEqual(
      checked,
    );
  });
});

describe('seqConflictError', () => {
  it('reports the duplicate id when the id is taken, the moved head otherwise', () => {
    const duplicate = seqConflictError(record, true);
    expect(duplicate).toBeInstanceOf(WeftError);
    expect(duplicate).not.toBeInstanceOf(CheckpointConflictError);
    expect(duplicate.message).toMatch(/checkpoint "c2" already exists/);
    const moved = seqConflictError(record, false, new Error('unique'));
    expect(moved).toBeInstanceOf(CheckpointConflictError);
    expect(moved.message).toMatch(/position 2/);
    expect(moved.cause).toEqual(new Error('unique'));
  });
});
