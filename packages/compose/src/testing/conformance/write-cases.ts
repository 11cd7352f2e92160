import { describe, expect, it } from 'vitest';
import { checkpointRecord, type StoreAccessor, taskWrites } from './records.js';

/**
 * Conformance cases for task writes, duplicate puts and thread deletion.
 *
 * @example
 * ```ts
 * import { beforeEach } from 'vitest';
 * let checkpointer = new MemoryCheckpointer();
 * beforeEach(() => {
 *   checkpointer = new MemoryCheckpointer(); // a fresh store per test
 * });
 * describeWriteCases(() => checkpointer);
 * ```
 */
export function describeWriteCases(store: StoreAccessor): void {
  describe('task writes, duplicate puts and thread deletion', () => {
    it('returns task writes in insertion order and replaces a task by id', async () => {
      await store().put(checkpointRecord('t1', '0001'));
      for (const task of ['task-c', 'task-a', 'task-b'])
        await store().putWrites(taskWrites('t1', '0001', task));
      await store().putWrites(taskWrites('t1', '0001', 'task-a', { payload: 'replaced' }));
      const stored = await store().get('t1', { id: '0001' });
      expect(stored?.writes).toEqual([
        taskWrites('t1', '0001', 'task-c'),
        taskWrites('t1', '0001', 'task-a', { payload: 'replaced' }),
        taskWrites('t1', '0001', 'task-b'),
      ]);
    });

    it('attaches writes to the checkpoint they were stored against', async () => {
      await store().put(checkpointRecord('t1', '0001'));
      await store().put(checkpointRecord('t1', '0002', { parentId: '0001' }));
      await store().put(checkpointRecord('t2', '0001'));
      await store().putWrites(taskWrites('t1', '0001', 'task-a'));
      await store().putWrites(taskWrites('t1', '0002', 'task-b'));
      await store().putWrites(taskWrites('t2', '0001', 'task-c'));
      expect((await store().get('t1'))?.writes).toEqual([taskWrites('t1', '0002', 'task-b')]);
      expect((await store().get('t1', { id: '0001' }))?.writes).toEqual([taskWrites('t1', '0001', 'task-a')]);
      expect((await store().get('t2'))?.writes).toEqual([taskWrites('t2', '0001', 'task-c')]);
    });

    it('rejects a duplicate put and keeps the first record', async () => {
      await store().put(checkpointRecord('t1', '0001', { payload: 'first' }));
      await expect(store().put(checkpointRecord('t1', '0001', { payload: 'second' }))).rejects.toThrow(
        /0001/,
      );
      expect((await store().get('t1'))?.checkpoint.payload).toBe('first');
      expect(await store().list('t1')).toHaveLength(1);
      await store().put(checkpointRecord('t2', '0001', { payload: 'other thread' }));
      expect((await store().get('t2'))?.checkpoint.payload).toBe('other thread');
    });

    it('deletes a thread in every namespace and leaves other threads alone', async () => {
      for (const ns of ['', 'outer:1', 'outer:1|inner:2']) {
        await store().put(checkpointRecord('t1', '0001', { ns }));
        await store().putWrites(taskWrites('t1', '0001', 'task-a', { ns }));
        await store().put(checkpointRecord('t2', '0001', { ns }));
        await store().putWrites(taskWrites('t2', '0001', 'task-a', { ns }));
      }
      await store().deleteThread('t1');
      await store().deleteThread('never-existed');
      for (const ns of ['', 'outer:1', 'outer:1|inner:2']) {
        expect(await store().get('t1', { ns })).toBeUndefined();
        expect(await store().list('t1', { ns })).toEqual([]);
        expect(await store().get('t2', { ns })).toEqual({
          checkpoint: checkpointRecord('t2', '0001', { ns }),
          writes: [taskWrites('t2', '0001', 'task-a', { ns })],
        });
      }
      await store().put(checkpointRecord('t1', '0001'));
      expect(await store().get('t1')).toEqual({ checkpoint: checkpointRecord('t1', '0001'), writes: [] });
    });
  });
}
