import { describe, expect, it } from 'vitest';
import { CheckpointConflictError } from '../../errors/checkpoint-conflict-error.js';
import { checkpointRecord, idsOf, type StoreAccessor } from './records.js';

/**
 * Conformance cases for one writer per thread: a taken `seq` conflicts (also under concurrent puts), and
 * a thread claimed by one writer refuses a second claim until released.
 *
 * @example
 * ```ts
 * import { beforeEach } from 'vitest';
 * let checkpointer = new MemoryCheckpointer();
 * beforeEach(() => {
 *   checkpointer = new MemoryCheckpointer(); // a fresh store per test
 * });
 * describeConflictCases(() => checkpointer);
 * ```
 */
export function describeConflictCases(store: StoreAccessor): void {
  describe('one writer per thread: seq conflicts and claims', () => {
    it('rejects a checkpoint whose seq is taken, naming the thread, and keeps the first', async () => {
      await store().put(checkpointRecord('t1', '0001'));
      await store().put(checkpointRecord('t1', 'winner', { seq: 2, parentId: '0001' }));
      const error = await store()
        .put(checkpointRecord('t1', 'loser', { seq: 2, parentId: '0001' }))
        .catch((caught: unknown) => caught);
      expect(CheckpointConflictError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'CHECKPOINT_CONFLICT', threadId: 't1', ns: '' });
      expect((error as Error).message).toMatch(/"t1"/);
      expect(idsOf(await store().list('t1'))).toEqual(['winner', '0001']);
      expect(await store().get('t1', { id: 'loser' })).toBeUndefined();
      // The same position is free in another namespace and another thread.
      await store().put(checkpointRecord('t1', 'nested', { seq: 2, ns: 'outer:1' }));
      await store().put(checkpointRecord('t2', 'other', { seq: 2 }));
    });

    it('lets exactly one of 20 concurrent puts at one position through', async () => {
      await store().put(checkpointRecord('t1', '0001'));
      const ids = Array.from({ length: 20 }, (_, index) => `racer-${index}`);
      const results = await Promise.allSettled(
        ids.map((id) => store().put(checkpointRecord('t1', id, { seq: 2, parentId: '0001' }))),
      );
      const won = results.filter((result) => result.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const result of results) {
        if (result.status === 'rejected')
          expect(CheckpointConflictError.isInstance(result.reason)).toBe(true);
      }
      const list = await store().list('t1');
      expect(list).toHaveLength(2);
      expect(list[0]?.seq).toBe(2);
    });

    it('refuses a second claim of a thread until the first is released', async () => {
      const first = await store().claimThread('t1');
      const error = await store()
        .claimThread('t1')
        .catch((caught: unknown) => caught);
      expect(CheckpointConflictError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ threadId: 't1' });
      const other = await store().claimThread('t2');
      await first.release();
      await first.release();
      const again = await store().claimThread('t1');
      await again.release();
      await other.release();
    });

    it('grants exactly one of 10 concurrent claims', async () => {
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => store().claimThread('t1')));
      const won = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      expect(won).toHaveLength(1);
      for (const result of results) {
        if (result.status === 'rejected')
          expect(CheckpointConflictError.isInstance(result.reason)).toBe(true);
      }
      await won[0]?.release();
      await (await store().claimThread('t1')).release();
    });
  });
}
