import { describe, expect, it } from 'vitest';
import { checkpointRecord, idsOf, type StoreAccessor, taskWrites } from './records.js';

/**
 * Conformance cases for reads: get latest, get by id, unknown threads, namespaces.
 *
 * @example
 * ```ts
 * import { beforeEach } from 'vitest';
 * let checkpointer = new MemoryCheckpointer();
 * beforeEach(() => {
 *   checkpointer = new MemoryCheckpointer(); // a fresh store per test
 * });
 * describeReadCases(() => checkpointer);
 * ```
 */
export function describeReadCases(store: StoreAccessor): void {
  describe('reads: get latest, get by id, unknown threads, namespaces', () => {
    it('returns the latest checkpoint of a thread, with every field as stored', async () => {
      const first = checkpointRecord('t1', '0001', { step: -1, source: 'input' });
      const second = checkpointRecord('t1', '0002', {
        parentId: '0001',
        baseId: '0001',
        step: 0,
        createdAt: '2024-01-01T00:00:01.000Z',
        metadata: { step: 0, parents: { '': '0001' }, tags: ['a', 'b'], score: 1.5, ok: true, none: null },
        payload: '{"values":{"count":2}}',
      });
      await store().put(first);
      await store().put(second);
      expect(await store().get('t1')).toEqual({ checkpoint: second, writes: [] });
    });

    it('picks the latest by seq, not by id or insertion order', async () => {
      for (const [id, seq] of [
        ['b', 2],
        ['c', 1],
        ['a', 3],
      ] as const)
        await store().put(checkpointRecord('t1', id, { seq }));
      expect((await store().get('t1'))?.checkpoint).toEqual(checkpointRecord('t1', 'a', { seq: 3 }));
    });

    it('gets a checkpoint by id, and undefined for an unknown id', async () => {
      for (const id of ['0001', '0002', '0003'])
        await store().put(checkpointRecord('t1', id, { step: Number(id) }));
      const stored = await store().get('t1', { id: '0002' });
      expect(stored?.checkpoint).toEqual(checkpointRecord('t1', '0002', { step: 2 }));
      expect(await store().get('t1', { id: '0009' })).toBeUndefined();
    });

    it('answers undefined and [] for an unknown thread', async () => {
      await store().put(checkpointRecord('t1', '0001'));
      expect(await store().get('other')).toBeUndefined();
      expect(await store().get('other', { id: '0001' })).toBeUndefined();
      expect(await store().list('other')).toEqual([]);
    });

    it('keeps namespaces apart (the same id may exist in each)', async () => {
      await store().put(checkpointRecord('t1', '0001', { payload: 'root' }));
      await store().put(checkpointRecord('t1', '0001', { ns: 'outer:1', payload: 'outer' }));
      await store().put(checkpointRecord('t1', '0002', { ns: 'outer:1|inner:2', payload: 'inner' }));
      await store().putWrites(taskWrites('t1', '0001', 'task-a', { ns: 'outer:1' }));
      expect((await store().get('t1'))?.checkpoint.payload).toBe('root');
      expect(await store().get('t1')).toMatchObject({ writes: [] });
      const outer = await store().get('t1', { ns: 'outer:1' });
      expect(outer?.checkpoint.payload).toBe('outer');
      expect(outer?.writes).toEqual([taskWrites('t1', '0001', 'task-a', { ns: 'outer:1' })]);
      expect(idsOf(await store().list('t1'))).toEqual(['0001']);
      expect(idsOf(await store().list('t1', { ns: 'outer:1|inner:2' }))).toEqual(['0002']);
      expect(await store().get('t1', { ns: 'outer:1|inner:2', id: '0001' })).toBeUndefined();
      expect(await store().get('t1', { ns: 'missing' })).toBeUndefined();
    });
  });
}
