import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CheckpointRecord } from '../../checkpoint/checkpointer.js';
import { StateGraph } from '../../graph/state-graph.js';
import { END, START } from '../../vocabulary/constants.js';
import { checkpointRecord, type StoreAccessor, taskWrites } from './records.js';

/** A counter with a date and a long note, so the first checkpoint is a snapshot and the rest are deltas. */
function counter(store: StoreAccessor) {
  const State = z.object({ note: z.string(), at: z.date(), n: z.number() });
  return new StateGraph(State)
    .addNode('inc', (state) => ({ n: state.n + 1 }))
    .addEdge(START, 'inc')
    .addConditionalEdges('inc', (state) => (state.n < 3 ? 'inc' : END))
    .compile({ checkpointer: store() });
}

const input = { note: 'x'.repeat(2000), at: new Date(0), n: 0 };

/** Runs the counter on `source`, then copies its checkpoints to `target`, each passed through `edit`. */
async function copyRun(
  store: StoreAccessor,
  names: { readonly source: string; readonly target: string },
  edit: (record: CheckpointRecord, index: number, all: readonly CheckpointRecord[]) => CheckpointRecord,
): Promise<CheckpointRecord[]> {
  await counter(store).invoke(input, { threadId: names.source });
  const records = (await store().list(names.source)).reverse();
  for (const [index, record] of records.entries())
    await store().put({ ...edit(record, index, records), threadId: names.target });
  return records;
}

function withoutChecksum(record: CheckpointRecord): CheckpointRecord {
  const { checksum: _dropped, ...rest } = record;
  return rest;
}

/**
 * Conformance cases for payload checksums and corrupt state: a store keeps each record's checksum as
 * given (and none for a record without one), and the engine refuses a changed payload with a
 * `CheckpointCorruptError` naming the checkpoint and, where it can be told, the key.
 *
 * @example
 * ```ts
 * import { beforeEach } from 'vitest';
 * let checkpointer = new MemoryCheckpointer();
 * beforeEach(() => {
 *   checkpointer = new MemoryCheckpointer(); // a fresh store per test
 * });
 * describeCorruptionCases(() => checkpointer);
 * ```
 */
export function describeCorruptionCases(store: StoreAccessor): void {
  describe('checksums and corrupt state', () => {
    it('keeps checksums as given, and returns none for a record stored without one', async () => {
      await store().put(checkpointRecord('t1', '0001', { checksum: 'sha256:00ff' }));
      await store().put(checkpointRecord('t1', '0002', { parentId: '0001' }));
      await store().putWrites(taskWrites('t1', '0002', 'task-a', { checksum: 'sha256:abcd' }));
      await store().putWrites(taskWrites('t1', '0002', 'task-b'));
      expect((await store().get('t1', { id: '0001' }))?.checkpoint.checksum).toBe('sha256:00ff');
      const head = await store().get('t1');
      expect(head?.checkpoint).not.toHaveProperty('checksum');
      expect(head?.writes.map((write) => write.checksum)).toEqual(['sha256:abcd', undefined]);
      expect(head?.writes[1]).not.toHaveProperty('checksum');
      expect((await store().list('t1')).map((record) => record.checksum)).toEqual([undefined, 'sha256:00ff']);
      await store().putWrites(
        taskWrites('t1', '0002', 'task-a', { payload: 'new', checksum: 'sha256:beef' }),
      );
      expect((await store().get('t1'))?.writes[0]?.checksum).toBe('sha256:beef');
    });

    it('stamps every checkpoint the engine writes, and a changed delta value fails its checksum', async () => {
      const records = await copyRun(store, { source: 'c-src', target: 'c-tampered' }, (record, index, all) =>
        index === all.length - 1
          ? { ...record, payload: record.payload.replace('["n",3]', '["n",5]') }
          : record,
      );
      expect(records.every((record) => record.checksum?.startsWith('sha256:'))).toBe(true);
      const head = records[records.length - 1]!;
      expect(head.payload).toContain('["n",3]');
      const error = await counter(store)
        .getState('c-tampered')
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        name: 'CheckpointCorruptError',
        code: 'CHECKPOINT_CORRUPT',
        kind: 'checksum',
        checkpointId: head.id,
        threadId: 'c-tampered',
      });
      await expect(counter(store).invoke(null, { threadId: 'c-tampered' })).rejects.toMatchObject({
        kind: 'checksum',
      });
    });

    it('names the key of a number stored as a string, with or without a checksum', async () => {
      const mistyped = (record: CheckpointRecord, index: number, all: readonly CheckpointRecord[]) =>
        index === all.length - 1
          ? { ...record, payload: record.payload.replace('["n",3]', '["n","3"]') }
          : record;
      await copyRun(store, { source: 's-src', target: 's-sum' }, mistyped);
      await expect(counter(store).getState('s-sum')).rejects.toMatchObject({ kind: 'checksum', key: 'n' });
      await copyRun(store, { source: 's-src2', target: 's-old' }, (record, index, all) =>
        withoutChecksum(mistyped(record, index, all)),
      );
      const error = await counter(store)
        .getState('s-old')
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ name: 'CheckpointCorruptError', kind: 'schema', key: 'n' });
      expect((error as Error).message).toMatch(/key "n".*expected number, received string/);
    });

    it('names the key of an invalid Date tag', async () => {
      await copyRun(store, { source: 'd-src', target: 'd-bad' }, (record, index) =>
        index === 0
          ? { ...record, payload: record.payload.replace('1970-01-01T00:00:00.000Z', 'not a date') }
          : record,
      );
      await expect(counter(store).getState('d-bad')).rejects.toMatchObject({
        name: 'CheckpointCorruptError',
        kind: 'encoding',
        key: 'at',
      });
    });

    it('loads checkpoints written before checksums existed, and continues their thread', async () => {
      await copyRun(store, { source: 'o-src', target: 'o-old' }, withoutChecksum);
      const state = await counter(store).getState('o-old');
      expect(state?.values).toEqual({ ...input, n: 3 });
      const again = await counter(store).invoke({ n: 0 }, { threadId: 'o-old' });
      expect(again.n).toBe(3);
      expect((await store().get('o-old'))?.checkpoint.checksum).toMatch(/^sha256:[0-9a-f]{64}$/);
    });
  });
}
