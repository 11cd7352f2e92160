import type { Checkpointer } from '@weft/compose';
import { afterEach, beforeEach, describe } from 'vitest';
import type { SessionService } from '../session/session.js';
import { describeCommitCases } from './session-conformance/commit-cases.js';
import { describeIsolationCases } from './session-conformance/isolation-cases.js';
import { describeLifecycleCases } from './session-conformance/lifecycle-cases.js';
import { describeScopeCases } from './session-conformance/scope-cases.js';
import { describeStatusCases } from './session-conformance/status-cases.js';
import { describeTransitionCases } from './session-conformance/transition-cases.js';
import { describeVolumeCases } from './session-conformance/volume-cases.js';

/**
 * What a session-service conformance factory returns: a fresh, empty service and how to dispose of it.
 *
 * @example
 * ```ts
 * const fixture: SessionServiceFixture = { service: new MemorySessionService() };
 * ```
 */
export interface SessionServiceFixture {
  readonly service: SessionService;
  /** The checkpointer of the same store, for the cases that run a `Runner` (default: in memory). */
  readonly checkpointer?: Checkpointer;
  /** Runs after `service.close()` (if defined): drop tables, delete files. */
  readonly cleanup?: () => Promise<void>;
}

/**
 * Registers the shared session-service conformance suite (vitest `describe`/`it` blocks); every
 * {@link SessionService} must pass it. `factory` runs before each test and must return a fresh, empty
 * service; after each test the suite calls `service.close()` (if defined) and then `cleanup()`.
 *
 * Covered: session, `user:`, `app:` and `temp:` scopes (app keys seen by other users, user keys by the
 * user's other sessions only), initial state, deletes by `null`/`undefined`, late commits (with id
 * tie-breaks and deletes), partial events, duplicate event ids, commit order, `recentEvents` and
 * `afterTimestamp`, list order, delete (user and app state stay), deep copies, errors, 50 concurrent
 * appends, concurrent appends to shared scopes, unicode and 1 MB values, ids that a joined key would
 * confuse (`/`, `%`, quotes, unicode) kept apart in the service and in a Runner's checkpoint threads,
 * and the session state machine (status, turns, compare-and-set, listing by status, every legal and
 * illegal move enforced by the service itself, a Runner's transitions — a cancelled turn `paused`, a
 * resume with nothing pending refused — and the waiting timeout's actions).
 *
 * @example
 * ```ts
 * import { MemorySessionService } from '@weft/adk';
 * import { describeSessionServiceConformance } from '@weft/adk/testing/conformance';
 *
 * describeSessionServiceConformance('MemorySessionService', async () => ({
 *   service: new MemorySessionService(),
 *   cleanup: async () => {},
 * }));
 * ```
 */
export function describeSessionServiceConformance(
  name: string,
  factory: () => Promise<SessionServiceFixture>,
): void {
  describe(`${name} (session service conformance)`, () => {
    let fixture: SessionServiceFixture | undefined;

    beforeEach(async () => {
      fixture = await factory();
    });

    afterEach(async () => {
      const current = fixture;
      fixture = undefined;
      await current?.service.close?.();
      await current?.cleanup?.();
    });

    const service = (): SessionService => {
      if (fixture === undefined) throw new Error('the conformance factory did not produce a session service');
      return fixture.service;
    };

    describeScopeCases(service);
    describeCommitCases(service);
    describeLifecycleCases(service);
    describeVolumeCases(service);
    describeIsolationCases(service, () => fixture?.checkpointer);
    describeStatusCases(service, () => fixture?.checkpointer);
    describeTransitionCases(service);
  });
}
