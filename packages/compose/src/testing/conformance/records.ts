import type { Checkpointer, CheckpointRecord, TaskWritesRecord } from '../../checkpoint/checkpointer.js';

/**
 * Gives the conformance cases the store of the running test (a fresh one per test).
 *
 * @example
 * ```ts
 * const store: StoreAccessor = () => fixture.checkpointer;
 * ```
 */
export type StoreAccessor = () => Checkpointer;

/**
 * A checkpoint record with test defaults: root namespace, its own snapshot, step 0, `loop` source, and a
 * `seq` equal to a numeric id (`'0003'` → 3); give `seq` explicitly for other ids.
 *
 * @example
 * ```ts
 * await store.put(checkpointRecord('t1', '0002', { parentId: '0001' }));
 * ```
 */
export function checkpointRecord(
  threadId: string,
  id: string,
  overrides: Partial<CheckpointRecord> = {},
): CheckpointRecord {
  return {
    threadId,
    ns: '',
    id,
    seq: /^\d+$/.test(id) ? Number(id) : 1,
    parentId: null,
    baseId: id,
    step: 0,
    source: 'loop',
    createdAt: '2024-01-01T00:00:00.000Z',
    metadata: {},
    payload: `{"id":${JSON.stringify(id)}}`,
    ...overrides,
  };
}

/**
 * A task-writes record with test defaults (root namespace, a small payload naming the task).
 *
 * @example
 * ```ts
 * await store.putWrites(taskWrites('t1', '0001', 'task-a'));
 * ```
 */
export function taskWrites(
  threadId: string,
  checkpointId: string,
  taskId: string,
  overrides: Partial<TaskWritesRecord> = {},
): TaskWritesRecord {
  return { threadId, ns: '', checkpointId, taskId, payload: `[["${taskId}",1]]`, ...overrides };
}

/**
 * Sorts ids newest first by plain string comparison: the order every store must list in.
 *
 * @example
 * ```ts
 * newestFirst(['a', 'c', 'B']); // ['c', 'a', 'B']
 * ```
 */
export function newestFirst(ids: readonly string[]): string[] {
  return [...ids].sort((left, right) => (left < right ? 1 : left > right ? -1 : 0));
}

/**
 * The ids of listed records, in order.
 *
 * @example
 * ```ts
 * expect(idsOf(await store.list('t1'))).toEqual(['0002', '0001']);
 * ```
 */
export function idsOf(records: readonly CheckpointRecord[]): string[] {
  return records.map((item) => item.id);
}
