import { describe, expect, it } from 'vitest';
import { describeCheckpointerConformance } from '../testing/checkpointer-conformance.js';
import type { CheckpointRecord } from './checkpointer.js';
import { MemoryCheckpointer, syncPut } from './memory-checkpointer.js';
import { payloadChecksum } from './payload-checksum.js';

describeCheckpointerConformance('MemoryCheckpointer', async () => ({
  checkpointer: new MemoryCheckpointer(),
}));

function record(threadId: string, id: string, payload: string, metadata = {}): CheckpointRecord {
  return {
    threadId,
    ns: '',
    id,
    seq: Number(id),
    parentId: null,
    baseId: id,
    step: 0,
    source: 'loop',
    createdAt: '2024-01-01T00:00:00.000Z',
    metadata,
    payload,
  };
}

describe('MemoryCheckpointer', () => {
  it('counts stored UTF-8 bytes of payloads, metadata JSON and writes, per thread', async () => {
    const store = new MemoryCheckpointer();
    expect(store.storedBytes()).toBe(0);
    await store.put(record('t1', '0001', 'abc', { k: 'é' }));
    expect(store.storedBytes('t1')).toBe(3 + '{"k":"é"}'.length + 1);
    await store.put(record('t1', '0002', '🧵', {}));
    await store.putWrites({ threadId: 't1', ns: 'sub', checkpointId: '0001', taskId: 'a', payload: 'xy' });
    await store.put(record('t2', '0001', '12345', {}));
    expect(store.storedBytes('t1')).toBe(3 + 10 + 4 + 2 + 2);
    expect(store.storedBytes('t2')).toBe(5 + 2);
    expect(store.storedBytes()).toBe(21 + 7);
    await store.putWrites({ threadId: 't1', ns: 'sub', checkpointId: '0001', taskId: 'a', payload: 'x' });
    expect(store.storedBytes('t1')).toBe(20);
    await store.deleteThread('t1');
    expect(store.storedBytes('t1')).toBe(0);
    expect(store.storedBytes()).toBe(7);
  });

  it('returns copies: changing a returned record does not change the store', async () => {
    const store = new MemoryCheckpointer();
    await store.put(record('t1', '0001', 'p', { tags: ['a'] }));
    const first = await store.get('t1');
    (first!.checkpoint.metadata.tags as string[]).push('changed');
    expect((await store.get('t1'))?.checkpoint.metadata).toEqual({ tags: ['a'] });
  });

  it('copies what put is given: changing the record afterwards does not change the store', async () => {
    const store = new MemoryCheckpointer();
    const given = record('t1', '0001', 'p', { tags: ['a'] });
    await store.put(given);
    (given.metadata.tags as string[]).push('changed');
    expect((await store.get('t1'))?.checkpoint.metadata).toEqual({ tags: ['a'] });
    expect(store.storedBytes('t1')).toBe(1 + '{"tags":["a"]}'.length);
  });

  it('stores a handed-over record at once, reads back copies and counts its metadata JSON', async () => {
    const store = new MemoryCheckpointer();
    const putNow = syncPut(store);
    if (putNow === undefined) throw new Error('a MemoryCheckpointer has a synchronous put');
    putNow(record('t1', '0002', 'p', { tags: ['a'], step: 2 }));
    putNow(record('t1', '0003', 'q', { tags: ['b'], step: 3 }));
    // An older seq goes before the others (a put between two stored checkpoints).
    await store.put(record('t1', '0001', 'o', { tags: ['z'], step: 1 }));
    expect((await store.list('t1')).map((r) => r.id)).toEqual(['0003', '0002', '0001']);
    expect((await store.list('t1', { filter: { step: 2 } })).map((r) => r.id)).toEqual(['0002']);
    const first = await store.get('t1');
    expect(first?.checkpoint).toMatchObject({ id: '0003', payload: 'q', metadata: { tags: ['b'], step: 3 } });
    (first!.checkpoint.metadata.tags as string[]).push('changed');
    expect((await store.get('t1'))?.checkpoint.metadata).toEqual({ tags: ['b'], step: 3 });
    expect(store.storedBytes('t1')).toBe(3 + 3 * '{"tags":["a"],"step":2}'.length);
    expect(() => putNow(record('t1', '0002', 'again'))).toThrow(/already exists/);
  });

  it('stamps the checksum a handed-over record leaves to it when the row is first read', async () => {
    const store = new MemoryCheckpointer();
    const putNow = syncPut(store)!;
    putNow({ ...record('t1', '0001', '{"v":1}'), checksum: '' });
    putNow({ ...record('t1', '0002', '{"v":2}'), checksum: 'sha256:given' });
    await store.put({ ...record('t1', '0003', '{"v":3}'), checksum: '' });
    const stamped = payloadChecksum('{"v":1}');
    expect((await store.list('t1')).map((r) => r.checksum)).toEqual(['', 'sha256:given', stamped]);
    expect((await store.get('t1', { id: '0001' }))?.checkpoint.checksum).toBe(stamped);
  });

  it('offers no synchronous put for a subclass that overrides put', () => {
    class Logging extends MemoryCheckpointer {
      override async put(given: CheckpointRecord): Promise<void> {
        return super.put(given);
      }
    }
    expect(syncPut(new Logging())).toBeUndefined();
    expect(syncPut(new MemoryCheckpointer())).toBeTypeOf('function');
  });

  it('throws a CHECKPOINT WeftError on a duplicate id', async () => {
    const store = new MemoryCheckpointer();
    await store.put(record('t1', '0001', 'p'));
    await expect(store.put(record('t1', '0001', 'q'))).rejects.toMatchObject({
      code: 'CHECKPOINT',
      message:
        'checkpoint "0001" already exists in thread "t1" (namespace ""); checkpoint ids must be unique',
    });
  });
});
