/**
 * `@weft/adk/session-store` — for authors of session, memory and artifact services (a database-backed
 * `SessionService` such as `@weft/store-sqlite`'s, a `MemoryService`, an `ArtifactService`): the
 * interfaces to implement, the argument checks and typed errors every implementation shares, how an
 * event's `stateDelta` splits into app, user and session writes (and which write is newer), and the
 * session-status rules. Users who only pass a service to a `Runner` need none of this: they import
 * `@weft/adk`. The shared conformance suites run under vitest, so they have their own entry,
 * `@weft/adk/testing/conformance` (docs/adr/024-entry-points-by-audience.md).
 *
 * @example
 * ```ts
 * import { assertSessionNames, newSessionKey, toStateWrites } from '@weft/adk/session-store';
 *
 * assertSessionNames({ appName: 'app', userId: 'u1', sessionId: 's1' });
 * const key = newSessionKey({ appName: 'app', userId: 'u1' });
 * const writes = toStateWrites({ 'app:theme': 'dark', 'user:name': 'Ada', draft: 'hi' });
 * console.log(key.sessionId, writes.map((write) => write.scope)); // …, ['app', 'user', 'session']
 * ```
 *
 * @packageDocumentation
 */
export type { Artifact, ArtifactInput, ArtifactService } from './artifact/artifact-service.js';
export type { AgentEvent, EventActions } from './event/agent-event.js';
export type {
  MemoryEntry,
  MemoryScope,
  MemorySearchOptions,
  MemoryService,
} from './memory/memory-service.js';
export type {
  GetSessionOptions,
  Session,
  SessionKey,
  SessionService,
  SessionSummary,
} from './session/session.js';
export {
  assertCommittableEvent,
  assertGetSessionOptions,
  assertSessionNames,
  duplicateEventError,
  isAtLeastAsNew,
  newSessionKey,
  type StateScope,
  type StateWrite,
  sessionExistsError,
  sessionNotFoundError,
  stateScopeOf,
  toCommittedEvent,
  toJsonText,
  toStateWrites,
  type WriteStamp,
} from './session/session-commit.js';
export {
  applyStatusChange,
  SESSION_STATUSES,
  SESSION_TRANSITIONS,
  type SessionStatus,
  type SessionStatusChange,
  type SessionStatusInfo,
  type SessionStatusQuery,
  statusFilter,
} from './session/session-status.js';
