import { describe, expect, it } from 'vitest';
import type { SessionKey, SessionService } from '../../session/session.js';
import { SESSION_STATUSES, SESSION_TRANSITIONS, type SessionStatus } from '../../session/session-status.js';
import { expectAdkError, type SessionServiceAccessor, session } from './session-fixtures.js';

/** A legal path from a new (idle) session to each status. */
const pathTo: Readonly<Record<SessionStatus, readonly SessionStatus[]>> = {
  idle: [],
  running: ['running'],
  waiting: ['running', 'waiting'],
  paused: ['running', 'paused'],
  failed: ['running', 'failed'],
  finished: ['finished'],
};

async function sessionIn(service: SessionService, status: SessionStatus, id: string): Promise<SessionKey> {
  const key = await session(service, 'u1', id);
  for (const step of pathTo[status]) await service.setStatus(key, { status: step });
  return key;
}

/**
 * Conformance cases for the session state machine every service enforces itself (not only the
 * Runner): each legal move is stored, each illegal one — every move out of `finished` among them — is
 * a typed error (`SESSION_FINISHED` out of `finished`, `SESSION_STATUS` otherwise) that changes nothing.
 *
 * @example
 * ```ts
 * import { beforeEach } from 'vitest';
 * let service = new MemorySessionService();
 * beforeEach(() => {
 *   service = new MemorySessionService(); // a fresh, empty service for each test
 * });
 * describeTransitionCases(() => service);
 * ```
 */
export function describeTransitionCases(service: SessionServiceAccessor): void {
  describe('session state machine', () => {
    it('stores every legal move', async () => {
      let n = 0;
      for (const from of SESSION_STATUSES) {
        for (const to of SESSION_TRANSITIONS[from]) {
          const key = await sessionIn(service(), from, `legal-${n++}`);
          const moved = await service().setStatus(key, { status: to, time: 5_000 });
          expect(moved, `${from} → ${to}`).toMatchObject({ status: to, statusTime: 5_000 });
          expect((await service().get(key))?.status, `${from} → ${to}`).toBe(to);
        }
      }
    });

    it('refuses every illegal move with a typed error and changes nothing', async () => {
      let n = 0;
      for (const from of SESSION_STATUSES) {
        const illegal = SESSION_STATUSES.filter((to) => !SESSION_TRANSITIONS[from].includes(to));
        for (const to of illegal) {
          const key = await sessionIn(service(), from, `illegal-${n++}`);
          const before = await service().get(key);
          await expectAdkError(
            service().setStatus(key, { status: to, countTurn: true }),
            from === 'finished' ? 'SESSION_FINISHED' : 'SESSION_STATUS',
          );
          const after = await service().get(key);
          expect(after, `${from} → ${to}`).toMatchObject({
            status: from,
            statusTime: before?.statusTime,
            turns: before?.turns,
          });
        }
      }
    });

    it('never moves a finished session back to running, whatever the caller expects', async () => {
      const key = await sessionIn(service(), 'finished', 'closed');
      await expectAdkError(service().setStatus(key, { status: 'running' }), 'SESSION_FINISHED');
      await expectAdkError(
        service().setStatus(key, { status: 'running', expect: ['finished'] }),
        'SESSION_FINISHED',
      );
      await expectAdkError(service().setStatus(key, { status: 'finished' }), 'SESSION_FINISHED');
      expect(await service().list({ appName: 'app', status: 'finished' })).toHaveLength(1);
    });
  });
}
