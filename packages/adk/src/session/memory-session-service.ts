import type { AgentEvent } from '../event/agent-event.js';
import type { GetSessionOptions, Session, SessionKey, SessionService, SessionSummary } from './session.js';
import {
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
  toCommittedEvent,
  toStateWrites,
  type WriteStamp,
} from './session-commit.js';
import {
  applyStatusChange,
  type SessionStatusChange,
  type SessionStatusInfo,
  type SessionStatusQuery,
  statusFilter,
} from './session-status.js';

/** A stored key: its value (`null` is a tombstone: deleted, but remembered for late commits) and stamp. */
interface StoredValue {
  readonly value: unknown;
  readonly stamp: WriteStamp;
}

type ScopeState = Map<string, StoredValue>;

interface StoredSession {
  readonly key: SessionKey;
  readonly state: ScopeState;
  readonly events: AgentEvent[];
  readonly eventIds: Set<string>;
  lastUpdateTime: number;
  status: SessionStatusInfo;
}

/**
 * A {@link SessionService} in memory: the default for tests, examples and single-process apps that need
 * no durability. It follows the commit contract of {@link SessionService}:
 *
 * - a non-partial event's `stateDelta` is applied before `appendEvent` returns: `app:` keys to the app,
 *   `user:` keys to the user (of this app), `temp:` keys dropped (and stripped from the stored event),
 *   other keys to the session;
 * - a `null` or `undefined` value deletes the key (the stored event shows `null`); the deletion is
 *   remembered, so a late commit cannot bring the key back;
 * - a key is only overwritten by an event at least as new (`timestamp`, then `id`) as the one that last
 *   wrote it; the event's other keys still apply;
 * - partial events are returned unchanged and not stored; a duplicate event id is refused;
 * - appends to one session run one after another (a promise chain per session), so concurrent appends
 *   never lose updates;
 * - everything returned is a deep copy (`structuredClone`), and stored values are copies too.
 *
 * @example
 * ```ts
 * const sessions = new MemorySessionService();
 * const session = await sessions.create({ appName: 'shop', userId: 'u1', state: { 'user:name': 'Ada' } });
 * await sessions.appendEvent(session, {
 *   id: '0001',
 *   invocationId: 'i1',
 *   author: 'agent',
 *   timestamp: Date.now(),
 *   actions: { stateDelta: { cart: ['apple'], 'temp:draft': 'x' } },
 * });
 * (await sessions.get(session))?.state; // { 'user:name': 'Ada', cart: ['apple'] }
 * ```
 */
export class MemorySessionService implements SessionService {
  readonly #sessions = new Map<string, StoredSession>();
  readonly #appState = new Map<string, ScopeState>();
  readonly #userState = new Map<string, ScopeState>();
  readonly #queues = new Map<string, Promise<void>>();

  /** @throws {AdkError} code `SESSION_EXISTS` when the id is taken, `INVALID_ARGUMENT` for empty names. */
  async create(options: {
    readonly appName: string;
    readonly userId: string;
    readonly sessionId?: string;
    readonly state?: Readonly<Record<string, unknown>>;
  }): Promise<Session> {
    let key: SessionKey = newSessionKey(options);
    while (options.sessionId === undefined && this.#sessions.has(storageKey(key)))
      key = newSessionKey(options);
    if (this.#sessions.has(storageKey(key))) throw sessionExistsError(key);
    const writes = toStateWrites(structuredClone(options.state));
    const now = Date.now();
    const stored: StoredSession = {
      key,
      state: new Map(),
      events: [],
      eventIds: new Set(),
      lastUpdateTime: now,
      status: { status: 'idle', statusTime: now, turns: 0 },
    };
    this.#sessions.set(storageKey(key), stored);
    this.#applyWrites(stored, writes, { timestamp: now, id: '' });
    return this.#snapshot(stored, {});
  }

  /** @throws {AdkError} code `INVALID_ARGUMENT` when `recentEvents` is negative or not an integer. */
  async get(key: SessionKey, options: GetSessionOptions = {}): Promise<Session | undefined> {
    assertGetSessionOptions(options);
    const stored = this.#sessions.get(storageKey(key));
    return stored === undefined ? undefined : this.#snapshot(stored, options);
  }

  /** @throws {AdkError} code `INVALID_ARGUMENT` for an unknown status. */
  async list(options: SessionStatusQuery): Promise<SessionSummary[]> {
    const statuses = statusFilter(options);
    const summaries: SessionSummary[] = [];
    for (const stored of this.#sessions.values()) {
      const { key } = stored;
      if (key.appName !== options.appName) continue;
      if (options.userId !== undefined && key.userId !== options.userId) continue;
      if (statuses && !statuses.includes(stored.status.status)) continue;
      summaries.push(summaryOf(stored));
    }
    return summaries.sort(
      (left, right) =>
        right.lastUpdateTime - left.lastUpdateTime || compareText(left.sessionId, right.sessionId),
    );
  }

  /**
   * @throws {AdkError} code `SESSION_NOT_FOUND` for an unknown session; `SessionStatusError` when
   * `change.expect` does not hold the status.
   */
  async setStatus(key: SessionKey, change: SessionStatusChange): Promise<SessionSummary> {
    return this.#serialize(storageKey(key), () => {
      const stored = this.#sessions.get(storageKey(key));
      if (stored === undefined) throw sessionNotFoundError(key);
      stored.status = applyStatusChange(key.sessionId, stored.status, change);
      return summaryOf(stored);
    });
  }

  async delete(key: SessionKey): Promise<void> {
    // Queued behind the session's pending appends, so they do not resurrect it.
    await this.#serialize(storageKey(key), () => {
      this.#sessions.delete(storageKey(key));
    });
  }

  /**
   * Commits a non-partial event and returns the stored copy (without `temp:` keys); a partial event is
   * returned as is. The given event is never changed.
   *
   * @throws {AdkError} code `SESSION_NOT_FOUND` for an unknown session, `INVALID_ARGUMENT` for an event
   * without id or timestamp or with an id already committed to the session.
   */
  async appendEvent(key: SessionKey, event: AgentEvent): Promise<AgentEvent> {
    if (event.partial === true) return event;
    assertSessionNames(key);
    assertCommittableEvent(event);
    return this.#serialize(storageKey(key), () => this.#commit(key, event));
  }

  #commit(key: SessionKey, event: AgentEvent): AgentEvent {
    const stored = this.#sessions.get(storageKey(key));
    if (stored === undefined) throw sessionNotFoundError(key);
    if (stored.eventIds.has(event.id)) throw duplicateEventError(key.sessionId, event.id);
    // Cloned before anything changes: a value structuredClone refuses leaves the session untouched.
    const committed = structuredClone(toCommittedEvent(event));
    this.#applyWrites(stored, toStateWrites(committed.actions.stateDelta), event);
    stored.events.push(committed);
    stored.eventIds.add(committed.id);
    stored.lastUpdateTime = Math.max(stored.lastUpdateTime, committed.timestamp);
    return structuredClone(committed);
  }

  #applyWrites(stored: StoredSession, writes: readonly StateWrite[], stamp: WriteStamp): void {
    for (const write of writes) {
      const scope = this.#scope(stored.key, write.scope);
      const current = scope.get(write.key);
      if (current !== undefined && !isAtLeastAsNew(stamp, current.stamp)) continue;
      scope.set(write.key, { value: write.value, stamp: { timestamp: stamp.timestamp, id: stamp.id } });
    }
  }

  #scope(key: SessionKey, scope: StateScope): ScopeState {
    if (scope === 'session') return this.#sessions.get(storageKey(key))?.state ?? new Map();
    const [states, owner] =
      scope === 'app'
        ? [this.#appState, key.appName]
        : [this.#userState, JSON.stringify([key.appName, key.userId])];
    let state = states.get(owner);
    if (state === undefined) states.set(owner, (state = new Map()));
    return state;
  }

  #snapshot(stored: StoredSession, options: GetSessionOptions): Session {
    const state = Object.fromEntries([
      ...liveEntries(this.#scope(stored.key, 'app')),
      ...liveEntries(this.#scope(stored.key, 'user')),
      ...liveEntries(stored.state),
    ]);
    const events = selectEvents(stored.events, options);
    return structuredClone({ ...summaryOf(stored), state, events });
  }

  /** Runs `task` after every task queued before it for the same session (a promise chain per session). */
  #serialize<TResult>(id: string, task: () => TResult): Promise<TResult> {
    const previous = this.#queues.get(id) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#queues.set(id, tail);
    void tail.then(() => {
      if (this.#queues.get(id) === tail) this.#queues.delete(id);
    });
    return result;
  }
}

function summaryOf(stored: StoredSession): SessionSummary {
  return { ...stored.key, lastUpdateTime: stored.lastUpdateTime, ...stored.status };
}

function storageKey(key: SessionKey): string {
  return JSON.stringify([key.appName, key.userId, key.sessionId]);
}

function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

function liveEntries(scope: ScopeState): [string, unknown][] {
  const entries: [string, unknown][] = [];
  for (const [key, stored] of scope) if (stored.value !== null) entries.push([key, stored.value]);
  return entries;
}

function selectEvents(events: readonly AgentEvent[], options: GetSessionOptions): readonly AgentEvent[] {
  const { afterTimestamp, recentEvents } = options;
  const after =
    afterTimestamp === undefined ? events : events.filter((event) => event.timestamp > afterTimestamp);
  if (recentEvents === undefined) return after;
  return recentEvents === 0 ? [] : after.slice(-recentEvents);
}
