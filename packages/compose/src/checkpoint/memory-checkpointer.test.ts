import { describe, expect, it } from 'vitest';
import { describeCheckpointerConformance } from '../testing/checkpointer-conformance.js';
import type { CheckpointRecord } from './checkpointer.js';
import { MemoryCheckpointer } from './memory-checkpointer.js';

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
