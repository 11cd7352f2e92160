import type { Checkpointer, CheckpointRecord, TaskWritesRecord } from '../../checkpoint/checkpointer.js';

/**
 * Gives the conformance cases the store of the running test (a fresh one per test).
 *
 * @example
 * ```ts
 * import { beforeEach } from 'vitest';
 * let checkpointer = new MemoryCheckpointer();
 * beforeEach(() => {
 *   checkpointer = new MemoryCheckpointer(); // a fresh store per test
 * });
 * const store: StoreAccessor = () => checkpointer;
 * ```
 */
export type StoreAccessor = () => Checkpointer;

/**
 * A checkpoint record with test defaults: root namespace, its own snapshot, step 0, `loop` source, and a
 * `seq` equal to a numeric id (`'0003'` → 3); give `seq` explicitly for other ids.
 *
 * @example
 * ```ts
 * const store = new MemoryCheckpointer();
 * await store.put(checkpointRecord('t1', '0001'));
 * await store.put(checkpointRecord('t1', '0002', { parentId: '0001' })); // seq 2, child of 0001
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
 * const store = new MemoryCheckpointer();
 * await store.put(checkpointRecord('t1', '0001'));
 * await store.putWrites(taskWrites('t1', '0001', 'task-a')); // pending writes of task-a on checkpoint 0001
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
 * const store = new MemoryCheckpointer();
 * await store.put(checkpointRecord('t1', '0001'));
 * await store.put(checkpointRecord('t1', '0002', { parentId: '0001' }));
 * idsOf(await store.list('t1')); // ['0002', '0001']
 * ```
 */
export function idsOf(records: readonly CheckpointRecord[]): string[] {
  return records.map((item) => item.id);
}
