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
 * Conformance cases for create, get (with `recentEvents` and `afterTimestamp`), list, delete, copies and
 * argument errors.
 *
 * @example
 * ```ts
 * import { beforeEach } from 'vitest';
 * let service = new MemorySessionService();
 * beforeEach(() => {
 *   service = new MemorySessionService(); // a fresh, empty service for each test
 * });
 * describeLifecycleCases(() => service);
 * ```
 */
export function describeLifecycleCases(service: SessionServiceAccessor): void {
  describe('create, get, list and delete', () => {
    it('generates unique session ids and returns a fresh session', async () => {
      const created = await Promise.all(
        Array.from({ length: 20 }, () => service().create({ appName: 'app', userId: 'u1' })),
      );
      expect(new Set(created.map((item) => item.sessionId)).size).toBe(20);
      const first = created[0]!;
      expect(first).toMatchObject({ appName: 'app', userId: 'u1', state: {}, events: [] });
      expect(typeof first.sessionId === 'string' && first.sessionId !== '').toBe(true);
      expect(Number.isFinite(first.lastUpdateTime)).toBe(true);
      expect(await service().get(first)).toEqual(first);
    });

    it('refuses an existing session id and leaves that session as it was', async () => {
      const key = await session(service(), 'u1', 's1', { count: 1 });
      await expectAdkError(
        service().create({ appName: 'app', userId: 'u1', sessionId: 's1', state: { count: 2 } }),
        'SESSION_EXISTS',
      );
      expect(await stateOf(service(), key)).toEqual({ count: 1 });
      await session(service(), 'u2', 's1');
    });

    it('reports unknown sessions: undefined from get, SESSION_NOT_FOUND from appendEvent', async () => {
      const missing = { appName: 'app', userId: 'u1', sessionId: 'missing' };
      expect(await service().get(missing)).toBeUndefined();
      await expectAdkError(service().appendEvent(missing, event('0001')), 'SESSION_NOT_FOUND');
      await service().delete(missing);
      expect(await service().list({ appName: 'app', userId: 'u1' })).toEqual([]);
    });

    it('returns the most recent events and the events after a time', async () => {
      const key = await session(service(), 'u1', 's1');
      for (const [index, offset] of [1, 3, 2, 4].entries()) {
        await service().appendEvent(key, event(`000${index}`, { timestamp: LATER + offset }));
      }
      const ids = async (options: { recentEvents?: number; afterTimestamp?: number }) =>
        (await service().get(key, options))?.events.map((item) => item.id);
      expect(await ids({})).toEqual(['0000', '0001', '0002', '0003']);
      expect(await ids({ recentEvents: 2 })).toEqual(['0002', '0003']);
      expect(await ids({ recentEvents: 10 })).toEqual(['0000', '0001', '0002', '0003']);
      expect(await ids({ recentEvents: 0 })).toEqual([]);
      expect(await ids({ afterTimestamp: LATER + 2 })).toEqual(['0001', '0003']);
      expect(await ids({ afterTimestamp: LATER + 1, recentEvents: 2 })).toEqual(['0002', '0003']);
      await expectAdkError(service().get(key, { recentEvents: -1 }), 'INVALID_ARGUMENT');
    });

    it("lists a user's sessions of an app, most recently updated first", async () => {
      const first = await session(service(), 'u1', 's1');
      const second = await session(service(), 'u1', 's2');
      await session(service(), 'u1', 's3');
      await session(service(), 'u2', 's4');
      await service().create({ appName: 'other-app', userId: 'u1', sessionId: 's5' });
      await service().appendEvent(second, event('0001', { timestamp: LATER + 1 }));
      await service().appendEvent(first, event('0002', { timestamp: LATER + 2 }));
      const listed = await service().list({ appName: 'app', userId: 'u1' });
      expect(listed.map((item) => item.sessionId)).toEqual(['s1', 's2', 's3']);
      expect(listed[0]).toMatchObject({
        appName: 'app',
        userId: 'u1',
        sessionId: 's1',
        lastUpdateTime: LATER + 2,
      });
      expect(listed[2]?.lastUpdateTime).toBeLessThan(LATER);
      expect(await service().list({ appName: 'app', userId: 'nobody' })).toEqual([]);
    });

    it('deletes a session with its events and session keys, keeping user and app state', async () => {
      const key = await session(service(), 'u1', 's1');
      await service().appendEvent(key, event('0001', { delta: { cart: [1], 'user:a': 1, 'app:b': 2 } }));
      await service().delete(key);
      expect(await service().get(key)).toBeUndefined();
      expect(await service().list({ appName: 'app', userId: 'u1' })).toEqual([]);
      await expectAdkError(service().appendEvent(key, event('0002')), 'SESSION_NOT_FOUND');
      const again = await service().create(key);
      expect(again.state).toEqual({ 'user:a': 1, 'app:b': 2 });
      expect(again.events).toEqual([]);
    });

    it('hands out copies: changing returned or given objects changes nothing stored', async () => {
      const initial = { nested: { list: [1] } };
      const created = await service().create({
        appName: 'app',
        userId: 'u1',
        sessionId: 's1',
        state: initial,
      });
      initial.nested.list.push(2);
      (created.state as { nested: { list: number[] } }).nested.list.push(3);
      const delta = { deep: { value: 'a' } };
      const given = event('0001', { delta });
      const returned = await service().appendEvent(created, given);
      delta.deep.value = 'changed';
      (returned.actions.stateDelta as { deep: { value: string } }).deep.value = 'changed too';
      const loaded = await service().get(created);
      if (loaded === undefined) throw new Error('the session was not stored');
      (loaded.state as { nested: { list: number[] } }).nested.list.push(4);
      (loaded.events as unknown[]).length = 0;
      const again = await service().get(created);
      expect(again?.state).toEqual({ nested: { list: [1] }, deep: { value: 'a' } });
      expect(again?.events[0]?.actions.stateDelta).toEqual({ deep: { value: 'a' } });
    });

    it('rejects empty names and events without an id or a finite timestamp', async () => {
      await expectAdkError(service().create({ appName: '', userId: 'u1' }), 'INVALID_ARGUMENT');
      await expectAdkError(
        service().create({ appName: 'app', userId: 'u1', sessionId: '' }),
        'INVALID_ARGUMENT',
      );
      const key = await session(service(), 'u1', 's1');
      await expectAdkError(service().appendEvent(key, event('')), 'INVALID_ARGUMENT');
      await expectAdkError(
        service().appendEvent(key, event('0001', { timestamp: Number.NaN })),
        'INVALID_ARGUMENT',
      );
      expect((await service().get(key))?.events).toEqual([]);
    });
  });
}
