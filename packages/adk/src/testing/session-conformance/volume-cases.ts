import { describe, expect, it } from 'vitest';
import { event, LATER, type SessionServiceAccessor, session, stateOf } from './session-fixtures.js';

/**
 * Conformance cases for concurrent appends, unicode and large (1 MB) values.
 *
 * @example
 * ```ts
 * import { beforeEach } from 'vitest';
 * let service = new MemorySessionService();
 * beforeEach(() => {
 *   service = new MemorySessionService(); // a fresh, empty service for each test
 * });
 * describeVolumeCases(() => service);
 * ```
 */
export function describeVolumeCases(service: SessionServiceAccessor): void {
  describe('concurrency and volume', () => {
    it('lands every key of 50 concurrent appends to one session', async () => {
      const key = await session(service(), 'u1', 's1');
      const ids = Array.from({ length: 50 }, (_, index) => String(index).padStart(4, '0'));
      await Promise.all(
        ids.map((id, index) =>
          service().appendEvent(
            key,
            event(id, { timestamp: LATER + index, delta: { [`k${id}`]: index, [`user:k${id}`]: id } }),
          ),
        ),
      );
      const stored = await service().get(key);
      expect(stored?.events.map((item) => item.id).sort()).toEqual(ids);
      const expected = Object.fromEntries(
        ids.flatMap((id, index) => [
          [`k${id}`, index],
          [`user:k${id}`, id],
        ]),
      );
      expect(stored?.state).toEqual(expected);
      expect(stored?.lastUpdateTime).toBe(LATER + 49);
    });

    it("lands concurrent appends of a user's sessions to the shared user: and app: scopes", async () => {
      const keys = await Promise.all(
        Array.from({ length: 10 }, (_, index) => session(service(), 'u1', `s${index}`)),
      );
      await Promise.all(
        keys.flatMap((key, index) =>
          [0, 1, 2, 3, 4].map((turn) =>
            service().appendEvent(
              key,
              event(`${index}-${turn}`, {
                delta: {
                  [`user:s${index}-${turn}`]: turn,
                  [`app:s${index}-${turn}`]: turn,
                  'user:shared': 'x',
                },
              }),
            ),
          ),
        ),
      );
      const state = await stateOf(service(), keys[0]!);
      expect(Object.keys(state)).toHaveLength(10 * 5 * 2 + 1);
      expect(state['user:s9-4']).toBe(4);
      expect(state['app:s3-2']).toBe(2);
    });

    it('stores unicode names, keys and values exactly', async () => {
      const text = 'héllo wörld — 你好, мир, مرحبا, 🧵🪡👩‍💻, e\u0301, tab\tnew\nline "quoted" \\ slash';
      const created = await service().create({
        appName: 'app-ü',
        userId: 'user-🧵',
        sessionId: `session-${text.slice(0, 8)}`,
        state: { 'user:имя': text },
      });
      const key = { appName: created.appName, userId: created.userId, sessionId: created.sessionId };
      await service().appendEvent(
        key,
        event('0001-é', { delta: { 'ключ-🪡': text, 'app:名前': [text] }, text }),
      );
      const stored = await service().get(key);
      expect(stored?.state).toEqual({ 'user:имя': text, 'ключ-🪡': text, 'app:名前': [text] });
      expect(stored?.events[0]?.message?.content).toBe(text);
      expect((await service().list({ appName: 'app-ü', userId: 'user-🧵' }))[0]?.sessionId).toBe(
        key.sessionId,
      );
    });

    it('stores 1 MB values and events exactly', async () => {
      const chunk = 'lorem ipsum é "quoted" \\ slash 🧵 ';
      const big = chunk.repeat(Math.ceil(1_048_576 / chunk.length));
      const key = await session(service(), 'u1', 's1', { initial: big });
      await service().appendEvent(key, event('0001', { delta: { big, 'user:big': { big } }, text: big }));
      const stored = await service().get(key);
      expect(stored?.state.initial === big).toBe(true);
      expect(stored?.state.big === big).toBe(true);
      expect((stored?.state['user:big'] as { big?: string } | undefined)?.big === big).toBe(true);
      expect(stored?.events[0]?.message?.content === big).toBe(true);
    });
  });
}
