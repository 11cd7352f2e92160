import { describe, expect, it } from 'vitest';
import {
  event,
  expectAdkError,
  LATER,
  type SessionServiceAccessor,
  session,
  stateOf,
} from './session-fixtures.js';

/**
 * Conformance cases for committing events: late commits, ties, partial events, duplicate ids.
 *
 * @example
 * ```ts
 * import { beforeEach } from 'vitest';
 * let service = new MemorySessionService();
 * beforeEach(() => {
 *   service = new MemorySessionService(); // a fresh, empty service for each test
 * });
 * describeCommitCases(() => service);
 * ```
 */
export function describeCommitCases(service: SessionServiceAccessor): void {
  describe('commits', () => {
    it('does not let a late commit overwrite a newer write, but applies its other keys', async () => {
      const key = await session(service(), 'u1', 's1');
      const newer = event('0002', { timestamp: LATER + 2, delta: { color: 'blue', 'user:x': 'new' } });
      const older = event('0001', {
        timestamp: LATER + 1,
        delta: { color: 'red', 'user:x': 'old', size: 'L', 'app:y': 1 },
      });
      await service().appendEvent(key, newer);
      await service().appendEvent(key, older);
      expect(await stateOf(service(), key)).toEqual({
        color: 'blue',
        'user:x': 'new',
        size: 'L',
        'app:y': 1,
      });
      const stored = await service().get(key);
      expect(stored?.events.map((item) => item.id)).toEqual(['0002', '0001']);
    });

    it('protects user: and app: keys from late commits of other sessions', async () => {
      const first = await session(service(), 'u1', 's1');
      const second = await session(service(), 'u1', 's2');
      await service().appendEvent(
        first,
        event('0002', { timestamp: LATER + 2, delta: { 'user:a': 2, 'app:b': 2 } }),
      );
      await service().appendEvent(
        second,
        event('0001', { timestamp: LATER + 1, delta: { 'user:a': 1, 'app:b': 1 } }),
      );
      expect(await stateOf(service(), second)).toEqual({ 'user:a': 2, 'app:b': 2 });
    });

    it('breaks timestamp ties by event id', async () => {
      const key = await session(service(), 'u1', 's1');
      await service().appendEvent(key, event('b', { timestamp: LATER, delta: { k: 'from b' } }));
      await service().appendEvent(key, event('a', { timestamp: LATER, delta: { k: 'from a' } }));
      expect(await stateOf(service(), key)).toEqual({ k: 'from b' });
      await service().appendEvent(key, event('c', { timestamp: LATER, delta: { k: 'from c' } }));
      expect(await stateOf(service(), key)).toEqual({ k: 'from c' });
    });

    it('neither deletes a newer write late nor resurrects a newer delete', async () => {
      const key = await session(service(), 'u1', 's1');
      await service().appendEvent(
        key,
        event('0004', { timestamp: LATER + 4, delta: { kept: 'v', gone: null } }),
      );
      await service().appendEvent(
        key,
        event('0003', { timestamp: LATER + 3, delta: { kept: null, gone: 'v' } }),
      );
      expect(await stateOf(service(), key)).toEqual({ kept: 'v' });
    });

    it('lets events overwrite initial state and later events overwrite earlier ones', async () => {
      const key = await session(service(), 'u1', 's1', { count: 0 });
      await service().appendEvent(key, event('0001', { timestamp: LATER + 1, delta: { count: 1 } }));
      await service().appendEvent(key, event('0002', { timestamp: LATER + 2, delta: { count: 2 } }));
      expect(await stateOf(service(), key)).toEqual({ count: 2 });
    });

    it('returns partial events unchanged and stores nothing of them', async () => {
      const key = await session(service(), 'u1', 's1', { count: 0 });
      const before = await service().get(key);
      const partial = event('0001', { partial: true, delta: { count: 1, 'user:x': 1 }, text: 'Hel' });
      expect(await service().appendEvent(key, partial)).toBe(partial);
      const after = await service().get(key);
      expect(after?.events).toEqual([]);
      expect(after?.state).toEqual({ count: 0 });
      expect(after?.lastUpdateTime).toBe(before?.lastUpdateTime);
    });

    it('refuses an event id already committed to the session and keeps the state', async () => {
      const key = await session(service(), 'u1', 's1');
      await service().appendEvent(key, event('0001', { delta: { count: 1 } }));
      await expectAdkError(
        service().appendEvent(key, event('0001', { timestamp: LATER + 5, delta: { count: 2 } })),
        'INVALID_ARGUMENT',
      );
      expect(await stateOf(service(), key)).toEqual({ count: 1 });
      expect((await service().get(key))?.events).toHaveLength(1);
      const other = await session(service(), 'u1', 's2');
      await service().appendEvent(other, event('0001', { delta: { count: 3 } }));
      expect(await stateOf(service(), other)).toEqual({ count: 3 });
    });

    it('stores events in commit order with their content, and moves lastUpdateTime forward only', async () => {
      const key = await session(service(), 'u1', 's1');
      const first = event('0001', { timestamp: LATER + 10, text: 'hello' });
      const second = { ...event('0002', { timestamp: LATER + 5 }), branch: 'root.child', turnComplete: true };
      expect(await service().appendEvent(key, first)).toEqual(first);
      expect(await service().appendEvent(key, second)).toEqual(second);
      const stored = await service().get(key);
      expect(stored?.events).toEqual([first, second]);
      expect(stored?.lastUpdateTime).toBe(LATER + 10);
    });
  });
}
