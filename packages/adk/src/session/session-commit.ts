import { AdkError } from '../errors/adk-error.js';
import type { AgentEvent } from '../event/agent-event.js';
import { APP_PREFIX, type GetSessionOptions, type SessionKey, TEMP_PREFIX, USER_PREFIX } from './session.js';

// The commit rules every SessionService shares, kept in one place so the memory, SQLite and PostgreSQL
// services cannot drift apart: which scope a key belongs to, how deletes are written, which write wins.

/**
 * Where a state key is stored: `app:` keys per app, `user:` keys per user of an app, other keys per
 * session (`temp:` keys are never stored).
 *
 * @example
 * ```ts
 * const scope: StateScope = stateScopeOf('user:name') ?? 'session'; // 'user'
 * ```
 */
export type StateScope = 'app' | 'user' | 'session';

/**
 * One key written by a commit. A `null` value deletes the key: stores keep a tombstone that remembers
 * when it was deleted, so a late commit cannot bring the key back.
 *
 * @example
 * ```ts
 * const write: StateWrite = { scope: 'app', key: 'app:theme', value: 'dark' };
 * ```
 */
export interface StateWrite {
  readonly scope: StateScope;
  /** The full key, prefix included (`app:theme`). */
  readonly key: string;
  /** The new value; `null` deletes the key. */
  readonly value: unknown;
}

/**
 * Which write a stored key came from: the event's `timestamp`, then its (time-sortable) `id` as the
 * tie-breaker. Initial state given to `create` is stamped with the creation time and the id `''`.
 *
 * @example
 * ```ts
 * const event: AgentEvent = {
 *   id: 'evt-1',
 *   invocationId: 'inv-1',
 *   author: 'desk',
 *   timestamp: Date.now(),
 *   actions: { stateDelta: { cart: ['tea'] } },
 * };
 * const stamp: WriteStamp = { timestamp: event.timestamp, id: event.id };
 * ```
 */
export interface WriteStamp {
  readonly timestamp: number;
  readonly id: string;
}

const NAME_FIELDS = ['appName', 'userId', 'sessionId'] as const;

const SCOPE_ORDER: Readonly<Record<StateScope, number>> = { app: 0, user: 1, session: 2 };

/**
 * The scope a state key is stored in, or `undefined` for `temp:` keys (never stored).
 *
 * @example
 * ```ts
 * stateScopeOf('app:theme'); // 'app'
 * stateScopeOf('temp:draft'); // undefined
 * stateScopeOf('cart'); // 'session'
 * ```
 */
export function stateScopeOf(key: string): StateScope | undefined {
  if (key.startsWith(TEMP_PREFIX)) return undefined;
  if (key.startsWith(APP_PREFIX)) return 'app';
  if (key.startsWith(USER_PREFIX)) return 'user';
  return 'session';
}

/**
 * The writes a state delta (or a session's initial state) makes: `temp:` keys dropped, `undefined` and
 * `null` both turned into deletes (`null`), sorted by scope (app, user, session) and then key, so SQL
 * stores lock rows in one global order and concurrent commits cannot deadlock.
 *
 * @example
 * ```ts
 * toStateWrites({ 'temp:x': 1, cart: [], 'app:theme': null });
 * // [{ scope: 'app', key: 'app:theme', value: null }, { scope: 'session', key: 'cart', value: [] }]
 * ```
 */
export function toStateWrites(delta: Readonly<Record<string, unknown>> | undefined): StateWrite[] {
  const writes: StateWrite[] = [];
  for (const [key, value] of Object.entries(delta ?? {})) {
    const scope = stateScopeOf(key);
    if (scope !== undefined) writes.push({ scope, key, value: value ?? null });
  }
  return writes.sort(
    (left, right) =>
      SCOPE_ORDER[left.scope] - SCOPE_ORDER[right.scope] ||
      (left.key < right.key ? -1 : left.key > right.key ? 1 : 0),
  );
}

/**
 * True when a write stamped `write` may overwrite a key last written by `current`: it is at least as new
 * (a later timestamp, or the same timestamp and an id that sorts at or after). A late commit never
 * overwrites a newer write.
 *
 * @example
 * ```ts
 * isAtLeastAsNew({ timestamp: 2, id: 'b' }, { timestamp: 2, id: 'a' }); // true
 * isAtLeastAsNew({ timestamp: 1, id: 'z' }, { timestamp: 2, id: 'a' }); // false
 * ```
 */
export function isAtLeastAsNew(write: WriteStamp, current: WriteStamp): boolean {
  return (
    write.timestamp > current.timestamp || (write.timestamp === current.timestamp && write.id >= current.id)
  );
}

/**
 * The event as a session stores it: a new object whose `stateDelta` has no `temp:` keys and whose
 * `undefined` values are `null` (deletes survive JSON storage). The given event is not changed.
 *
 * @example
 * ```ts
 * const event: AgentEvent = { id: 'evt-1', invocationId: 'inv-1', author: 'desk', timestamp: Date.now(), actions: {} };
 * toCommittedEvent({ ...event, actions: { stateDelta: { 'temp:x': 1, cart: undefined } } }).actions;
 * // { stateDelta: { cart: null } }
 * ```
 */
export function toCommittedEvent(event: AgentEvent): AgentEvent {
  const delta = event.actions.stateDelta;
  if (delta === undefined) return { ...event };
  const stored = Object.fromEntries(
    Object.entries(delta)
      .filter(([key]) => stateScopeOf(key) !== undefined)
      .map(([key, value]) => [key, value ?? null]),
  );
  return { ...event, actions: { ...event.actions, stateDelta: stored } };
}

/**
 * Checks the names of a session (or of a user's sessions): non-empty strings.
 *
 * @throws {AdkError} code `INVALID_ARGUMENT` when a name is missing or empty.
 * @example
 * ```ts
 * assertSessionNames({ appName: 'shop', userId: 'u1', sessionId: 's1' });
 * ```
 */
export function assertSessionNames(names: {
  readonly appName: string;
  readonly userId: string;
  readonly sessionId?: string;
}): void {
  const fields = names.sessionId === undefined ? NAME_FIELDS.slice(0, 2) : NAME_FIELDS;
  for (const field of fields) {
    const value: unknown = names[field];
    if (typeof value !== 'string' || value === '') {
      throw new AdkError(
        'INVALID_ARGUMENT',
        `session ${field} must be a non-empty string, got ${String(value)}`,
      );
    }
  }
}

/**
 * The key of a session about to be created: checks the names and generates an id when none is given.
 *
 * @throws {AdkError} code `INVALID_ARGUMENT` when a name is missing or empty.
 * @example
 * ```ts
 * const key = newSessionKey({ appName: 'shop', userId: 'u1' }); // sessionId: a random UUID
 * ```
 */
export function newSessionKey(options: {
  readonly appName: string;
  readonly userId: string;
  readonly sessionId?: string;
}): SessionKey {
  const { appName, userId, sessionId } = options;
  assertSessionNames(sessionId === undefined ? { appName, userId } : { appName, userId, sessionId });
  return { appName, userId, sessionId: sessionId ?? globalThis.crypto.randomUUID() };
}

/**
 * Checks that an event can be committed: a non-empty `id`, a finite `timestamp` and an `actions` object.
 *
 * @throws {AdkError} code `INVALID_ARGUMENT` when it cannot.
 * @example
 * ```ts
 * const event: AgentEvent = {
 *   id: 'evt-1',
 *   invocationId: 'inv-1',
 *   author: 'desk',
 *   timestamp: Date.now(),
 *   actions: { stateDelta: { cart: ['tea'] } },
 * };
 * assertCommittableEvent(event); // before storing it: throws for an empty id or a partial event
 * ```
 */
export function assertCommittableEvent(event: AgentEvent): void {
  if (typeof event.id !== 'string' || event.id === '') {
    throw new AdkError('INVALID_ARGUMENT', 'an event needs a non-empty id to be committed');
  }
  if (typeof event.timestamp !== 'number' || !Number.isFinite(event.timestamp)) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      `event "${event.id}" needs a finite timestamp (ms since the epoch)`,
    );
  }
  if (typeof event.actions !== 'object' || event.actions === null) {
    throw new AdkError('INVALID_ARGUMENT', `event "${event.id}" needs an actions object (use {} for none)`);
  }
}

/**
 * Checks {@link GetSessionOptions}: `recentEvents` a non-negative integer, `afterTimestamp` a number.
 *
 * @throws {AdkError} code `INVALID_ARGUMENT` when an option is out of range.
 * @example
 * ```ts
 * assertGetSessionOptions({ recentEvents: 10 });
 * ```
 */
export function assertGetSessionOptions(options: GetSessionOptions): void {
  const { recentEvents, afterTimestamp } = options;
  if (recentEvents !== undefined && (!Number.isInteger(recentEvents) || recentEvents < 0)) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      `recentEvents must be a non-negative integer, got ${recentEvents}`,
    );
  }
  if (afterTimestamp !== undefined && Number.isNaN(afterTimestamp)) {
    throw new AdkError('INVALID_ARGUMENT', 'afterTimestamp must be a number, got NaN');
  }
}

/**
 * The error for a duplicate event id: committing one event twice would apply its delta twice.
 *
 * @example
 * ```ts
 * const event: AgentEvent = {
 *   id: 'evt-1',
 *   invocationId: 'inv-1',
 *   author: 'desk',
 *   timestamp: Date.now(),
 *   actions: { stateDelta: { cart: ['tea'] } },
 * };
 * const seen = new Set(['evt-1']);
 * if (seen.has(event.id)) throw duplicateEventError('s1', event.id);
 * ```
 */
export function duplicateEventError(sessionId: string, eventId: string, cause?: unknown): AdkError {
  return new AdkError(
    'INVALID_ARGUMENT',
    `event "${eventId}" is already committed to session "${sessionId}"; event ids must be unique`,
    cause === undefined ? undefined : { cause },
  );
}

/**
 * The error `create` throws for a session id that is taken.
 *
 * @example
 * ```ts
 * const sessions = new Map([['s1', { state: {} }]]);
 * const [appName, userId, id] = ['shop', 'u1', 's1'];
 * if (sessions.has(id)) throw sessionExistsError({ appName, userId, sessionId: id });
 * ```
 */
export function sessionExistsError(key: SessionKey, cause?: unknown): AdkError {
  return new AdkError(
    'SESSION_EXISTS',
    `session "${key.sessionId}" of user "${key.userId}" in app "${key.appName}" already exists; pick another id or omit it to get a generated one`,
    cause === undefined ? undefined : { cause },
  );
}

/**
 * The error `appendEvent` throws for a session that does not exist (never created, or deleted).
 *
 * @example
 * ```ts
 * const sessions = new MemorySessionService();
 * const key = { appName: 'shop', userId: 'u1', sessionId: 'missing' };
 * const session = await sessions.get(key);
 * if (session === undefined) throw sessionNotFoundError(key);
 * ```
 */
export function sessionNotFoundError(key: SessionKey): AdkError {
  return new AdkError(
    'SESSION_NOT_FOUND',
    `session "${key.sessionId}" of user "${key.userId}" in app "${key.appName}" does not exist; create it first`,
  );
}

/**
 * A value as JSON text, for stores that keep state and events as JSON.
 *
 * @throws {AdkError} code `INVALID_ARGUMENT` when the value has no JSON form (a function, a symbol, a
 * BigInt or a cycle).
 * @example
 * ```ts
 * const [key, value] = ['cart', ['tea']];
 * const row = { key, value: toJsonText(value, `state key "${key}"`) }; // value: '["tea"]'
 * ```
 */
export function toJsonText(value: unknown, what: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new AdkError('INVALID_ARGUMENT', `${what} cannot be stored as JSON: ${String(error)}`, {
      cause: error,
    });
  }
  if (text === undefined) {
    throw new AdkError('INVALID_ARGUMENT', `${what} cannot be stored as JSON (it is a ${typeof value})`);
  }
  return text;
}
