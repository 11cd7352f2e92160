import { describe, expect, it } from 'vitest';
import { event, type SessionServiceAccessor, session, stateOf } from './session-fixtures.js';

/**
 * Conformance cases for state scopes: session, `user:`, `app:` and `temp:` keys, initial state, deletes.
 *
 * @example
 * ```ts
 * import { beforeEach } from 'vitest';
 * let service = new MemorySessionService();
 * beforeEach(() => {
 *   service = new MemorySessionService(); // a fresh, empty service for each test
 * });
 * describeScopeCases(() => service);
 * ```
 */
export function describeScopeCases(service: SessionServiceAccessor): void {
  describe('state scopes', () => {
    it('keeps plain keys in their session only', async () => {
      const first = await session(service(), 'u1', 's1');
      const second = await session(service(), 'u1', 's2');
      await service().appendEvent(first, event('0001', { delta: { cart: ['apple'], count: 1 } }));
      expect(await stateOf(service(), first)).toEqual({ cart: ['apple'], count: 1 });
      expect(await stateOf(service(), second)).toEqual({});
    });

    it('shares app: keys with every user of the app, including sessions created later', async () => {
      const ada = await session(service(), 'ada', 's1');
      const bob = await session(service(), 'bob', 's1');
      await service().appendEvent(ada, event('0001', { delta: { 'app:theme': 'dark' } }));
      expect(await stateOf(service(), bob)).toEqual({ 'app:theme': 'dark' });
      expect(await stateOf(service(), await session(service(), 'eve', 's9'))).toEqual({
        'app:theme': 'dark',
      });
      const other = await service().create({ appName: 'other-app', userId: 'ada', sessionId: 's1' });
      expect(other.state).toEqual({});
    });

    it("shares user: keys with the user's other sessions, not with other users or apps", async () => {
      const first = await session(service(), 'ada', 's1');
      const second = await session(service(), 'ada', 's2');
      const bob = await session(service(), 'bob', 's1');
      await service().appendEvent(first, event('0001', { delta: { 'user:name': 'Ada' } }));
      expect(await stateOf(service(), second)).toEqual({ 'user:name': 'Ada' });
      expect(await stateOf(service(), bob)).toEqual({});
      const otherApp = await service().create({ appName: 'other-app', userId: 'ada' });
      expect(otherApp.state).toEqual({});
    });

    it('never stores temp: keys and strips them from the stored event, leaving the given event intact', async () => {
      const key = await session(service(), 'u1', 's1', { 'temp:seed': 1, kept: true });
      const delta = { 'temp:draft': 'x', 'temp:': 0, cart: ['apple'] };
      const given = event('0001', { delta });
      const returned = await service().appendEvent(key, given);
      expect(returned.actions.stateDelta).toEqual({ cart: ['apple'] });
      expect(given.actions.stateDelta).toEqual({ 'temp:draft': 'x', 'temp:': 0, cart: ['apple'] });
      const stored = await service().get(key);
      expect(stored?.state).toEqual({ kept: true, cart: ['apple'] });
      expect(stored?.events.map((item) => item.actions.stateDelta)).toEqual([{ cart: ['apple'] }]);
    });

    it('puts scoped keys of the initial state into their scopes', async () => {
      const created = await service().create({
        appName: 'app',
        userId: 'ada',
        sessionId: 's1',
        state: { 'app:plan': 'pro', 'user:name': 'Ada', cart: [], 'temp:x': 1 },
      });
      expect(created.state).toEqual({ 'app:plan': 'pro', 'user:name': 'Ada', cart: [] });
      expect(created.events).toEqual([]);
      expect(await stateOf(service(), await session(service(), 'ada', 's2'))).toEqual({
        'app:plan': 'pro',
        'user:name': 'Ada',
      });
      expect(await stateOf(service(), await session(service(), 'bob', 's1'))).toEqual({ 'app:plan': 'pro' });
    });

    it('deletes keys of every scope with null or undefined, and stores null in the event', async () => {
      const key = await session(service(), 'u1', 's1', { a: 1, b: 2, 'user:c': 3, 'app:d': 4, e: 5 });
      const returned = await service().appendEvent(
        key,
        event('0001', { delta: { a: null, b: undefined, 'user:c': null, 'app:d': undefined } }),
      );
      expect(returned.actions.stateDelta).toEqual({ a: null, b: null, 'user:c': null, 'app:d': null });
      expect(await stateOf(service(), key)).toEqual({ e: 5 });
      const stored = await service().get(key);
      expect(stored?.events[0]?.actions.stateDelta).toEqual({
        a: null,
        b: null,
        'user:c': null,
        'app:d': null,
      });
      expect(Object.keys(stored?.events[0]?.actions.stateDelta ?? {})).toHaveLength(4);
    });

    it('keeps falsy values that are not null: 0, false, empty string, empty array and object', async () => {
      const key = await session(service(), 'u1', 's1');
      const delta = { zero: 0, no: false, empty: '', list: [], object: {}, 'user:zero': 0, 'app:no': false };
      await service().appendEvent(key, event('0001', { delta }));
      expect(await stateOf(service(), key)).toEqual(delta);
    });
  });
}
