import { describe, expect, it } from 'vitest';
import { checkpointRecord, idsOf, type StoreAccessor, taskWrites } from './records.js';

/**
 * Conformance cases for large and unicode payloads, concurrency.
 *
 * @example
 * ```ts
 * import { beforeEach } from 'vitest';
 * let checkpointer = new MemoryCheckpointer();
 * beforeEach(() => {
 *   checkpointer = new MemoryCheckpointer(); // a fresh store per test
 * });
 * describeVolumeCases(() => checkpointer);
 * ```
 */
export function describeVolumeCases(store: StoreAccessor): void {
  describe('large and unicode payloads, concurrency', () => {
    it('stores large payloads (1 MB) exactly', async () => {
      const chunk = '{"text":"lorem ipsum \\u00e9 \\"quoted\\" \\\\ slash"},';
      const payload = `[${chunk.repeat(Math.ceil(1_048_576 / chunk.length))}null]`;
      await store().put(checkpointRecord('t1', '0001', { payload }));
      await store().putWrites(taskWrites('t1', '0001', 'task-a', { payload }));
      const stored = await store().get('t1');
      expect(stored?.checkpoint.payload.length).toBe(payload.length);
      expect(stored?.checkpoint.payload === payload).toBe(true);
      expect(stored?.writes[0]?.payload === payload).toBe(true);
    });

    it('stores unicode in payloads, metadata, thread ids and namespaces', async () => {
      const text = 'héllo wörld — 你好, мир, مرحبا, 🧵🪡👩‍💻, e\u0301, \u{1F600}, tab\tnew\nline';
      const threadId = `thread-${text.slice(0, 12)}-🧵`;
      const ns = 'outer:ü|inner:🪡';
      await store().put(
        checkpointRecord(threadId, '0001', { ns, payload: JSON.stringify({ text }), metadata: { text } }),
      );
      await store().putWrites(taskWrites(threadId, '0001', 'task-ü', { ns, payload: text }));
      const stored = await store().get(threadId, { ns });
      expect(stored?.checkpoint.payload).toBe(JSON.stringify({ text }));
      expect(stored?.checkpoint.metadata).toEqual({ text });
      expect(stored?.writes).toEqual([taskWrites(threadId, '0001', 'task-ü', { ns, payload: text })]);
      expect(idsOf(await store().list(threadId, { ns, filter: { text } }))).toEqual(['0001']);
    });

    it('handles 100 concurrent puts on different threads', async () => {
      const threads = Array.from({ length: 100 }, (_, index) => `thread-${index}`);
      await Promise.all(
        threads.map((threadId) => store().put(checkpointRecord(threadId, '0001', { payload: threadId }))),
      );
      await Promise.all(
        threads.map((threadId) =>
          store().put(checkpointRecord(threadId, '0002', { parentId: '0001', payload: threadId })),
        ),
      );
      const lists = await Promise.all(threads.map((threadId) => store().list(threadId)));
      lists.forEach((list, index) => {
        expect(idsOf(list)).toEqual(['0002', '0001']);
        expect(
          list.every((item) => item.threadId === threads[index] && item.payload === threads[index]),
        ).toBe(true);
      });
    });

    it('keeps every write of concurrent putWrites on one checkpoint', async () => {
      await store().put(checkpointRecord('t1', '0001'));
      const tasks = Array.from({ length: 20 }, (_, index) => `task-${String(index).padStart(2, '0')}`);
      await Promise.all(tasks.map((taskId) => store().putWrites(taskWrites('t1', '0001', taskId))));
      const stored = await store().get('t1');
      expect(stored?.writes.map((write) => write.taskId).sort()).toEqual(tasks);
    });
  });
}
