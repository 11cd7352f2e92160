import type { AgentEvent } from '../event/agent-event.js';
import type { SessionStatusChange, SessionStatusInfo, SessionStatusQuery } from './session-status.js';

/** Keys with this prefix are shared by all sessions of an app. */
export const APP_PREFIX = 'app:';
/** Keys with this prefix are shared by all sessions of a user. */
export const USER_PREFIX = 'user:';
/** Keys with this prefix live for one invocation and are never stored. */
export const TEMP_PREFIX = 'temp:';

/** Identifies a session. */
export interface SessionKey {
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
}

/**
 * A conversation: its merged state (session, `user:` and `app:` keys), its committed events and its
 * status (see `SessionStatus`).
 */
export interface Session extends SessionKey, SessionStatusInfo {
  /** Session keys plus the app's `app:` keys and the user's `user:` keys (never `temp:` keys). */
  readonly state: Readonly<Record<string, unknown>>;
  /** Committed (non-partial) events, oldest first. */
  readonly events: readonly AgentEvent[];
  /** Time of the last committed event (ms since the epoch). */
  readonly lastUpdateTime: number;
}

/** A session without its state and events, for listings. */
export interface SessionSummary extends SessionKey, SessionStatusInfo {
  readonly lastUpdateTime: number;
}

/** Options of {@link SessionService.get}. */
export interface GetSessionOptions {
  /** Only the last N events. */
  readonly recentEvents?: number;
  /** Only events after this time. */
  readonly afterTimestamp?: number;
}

/**
 * Stores sessions and commits events. The commit contract (Google ADK's, with its bugs fixed):
 * `appendEvent` commits a non-partial event's `stateDelta` before it returns; partial events are not
 * stored; `temp:` keys are dropped; `user:`/`app:` keys go to the user/app scope; a key is only
 * overwritten by an event at least as new as the one that last wrote it (a late commit never
 * overwrites a newer write). Every implementation passes one conformance suite.
 */
export interface SessionService {
  /** Creates a session (with initial state; scoped keys go to their scopes). Throws if the id exists. */
  create(options: {
    readonly appName: string;
    readonly userId: string;
    readonly sessionId?: string;
    readonly state?: Readonly<Record<string, unknown>>;
  }): Promise<Session>;
  /** Loads a session with its merged state and events; `undefined` when absent. */
  get(key: SessionKey, options?: GetSessionOptions): Promise<Session | undefined>;
  /**
   * Lists an app's sessions — one user's, or every user's without `userId` — most recently updated
   * first, only those in the given status(es) when `status` is set.
   */
  list(options: SessionStatusQuery): Promise<SessionSummary[]>;
  /**
   * Sets a session's status atomically: when `change.expect` is given and the stored status is not in
   * it, nothing changes and a `SessionStatusError` is thrown (`SESSION_FINISHED` when the session is
   * finished, else `SESSION_STATUS`); `countTurn` adds one to `turns`. Returns the new summary.
   */
  setStatus(key: SessionKey, change: SessionStatusChange): Promise<SessionSummary>;
  /** Deletes a session and its events (user and app state stay). */
  delete(key: SessionKey): Promise<void>;
  /** Commits an event (see the contract above) and returns it; partial events are returned untouched. */
  appendEvent(key: SessionKey, event: AgentEvent): Promise<AgentEvent>;
  /** Releases resources, if any. */
  close?(): Promise<void>;
}
