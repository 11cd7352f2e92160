import type {
  AgentEvent,
  GetSessionOptions,
  Session,
  SessionKey,
  SessionService,
  SessionStatus,
  SessionSummary,
} from '@weft/adk';
import {
  applyStatusChange,
  assertCommittableEvent,
  assertGetSessionOptions,
  assertSessionNames,
  duplicateEventError,
  newSessionKey,
  type SessionStatusChange,
  type SessionStatusQuery,
  type StateWrite,
  sessionExistsError,
  sessionNotFoundError,
  statusFilter,
  toCommittedEvent,
  toJsonText,
  toStateWrites,
  type WriteStamp,
} from '@weft/adk/session-store';
import type { Database } from 'better-sqlite3';
import { openDatabase, type SqliteStoreOptions } from './open-database.js';
import {
  prepareSessionStatements,
  type SessionRow,
  type SessionStatements,
  scopeOwner,
} from './sqlite-session-statements.js';

/**
 * Options of {@link SqliteSessionService}: a file to open, or a database you already opened.
 *
 * @example
 * ```ts
 * const options: SqliteSessionServiceOptions = { filename: 'weft.db' };
 * ```
 */
export type SqliteSessionServiceOptions = SqliteStoreOptions;

/** A write ready for SQL: its owner names and its value as JSON text (`null` deletes the key). */
interface SqlWrite {
  readonly write: StateWrite;
  readonly valueText: string | null;
}

/**
 * A {@link SessionService} in one SQLite file (or in memory) on better-sqlite3, with the commit contract
 * of `@weft/adk` (see `SessionService`): `app:`/`user:`/session keys in their scopes, `temp:` keys never
 * stored, `null`/`undefined` deleting a key, partial events not stored, and late commits refused per key
 * by the upsert's `WHERE` clause (each key row remembers the `timestamp` and `id` of its last write).
 * Every append is one immediate transaction, so appends from several processes on one file serialize.
 * The file can be shared with `SqliteCheckpointer` (one schema, versioned by `PRAGMA user_version`).
 * State values and events are stored as JSON.
 *
 * @example
 * ```ts
 * import { SqliteSessionService } from '@weft/store-sqlite';
 *
 * const sessions = new SqliteSessionService({ filename: 'weft.db' });
 * const session = await sessions.create({ appName: 'shop', userId: 'u1' });
 * await sessions.appendEvent(session, {
 *   id: '0001',
 *   invocationId: 'i1',
 *   author: 'agent',
 *   timestamp: Date.now(),
 *   actions: { stateDelta: { cart: ['apple'], 'user:name': 'Ada' } },
 * });
 * (await sessions.get(session))?.state; // { 'user:name': 'Ada', cart: ['apple'] }
 * await sessions.close();
 * ```
 */
export class SqliteSessionService implements SessionService {
  readonly #db: Database;
  readonly #ownsDatabase: boolean;
  readonly #statements: SessionStatements;
  readonly #commit: (key: SessionKey, event: AgentEvent, payload: string, writes: SqlWrite[]) => void;
  readonly #create: (key: SessionKey, now: number, writes: SqlWrite[]) => Session | undefined;
  readonly #load: (key: SessionKey, options: GetSessionOptions) => Session | undefined;
  readonly #delete: (key: SessionKey) => void;
  readonly #setStatus: (key: SessionKey, change: SessionStatusChange) => SessionSummary;

  /** @throws {WeftError} code `CHECKPOINT` when the file holds a schema newer than this package knows. */
  constructor(options: SqliteSessionServiceOptions = {}) {
    const { db, owned } = openDatabase(options);
    this.#db = db;
    this.#ownsDatabase = owned;
    this.#statements = prepareSessionStatements(db);
    this.#commit = db.transaction(this.#commitInTransaction.bind(this)).immediate;
    this.#create = db.transaction(this.#createInTransaction.bind(this)).immediate;
    this.#load = db.transaction(this.#loadInTransaction.bind(this)).deferred;
    this.#delete = db.transaction((key: SessionKey) => {
      const names = [key.appName, key.userId, key.sessionId];
      this.#statements.deleteEvents.run(...names);
      this.#statements.deleteSessionState.run(...names);
      this.#statements.deleteSession.run(...names);
    }).immediate;
    this.#setStatus = db.transaction((key: SessionKey, change: SessionStatusChange) => {
      const names = [key.appName, key.userId, key.sessionId];
      const row = this.#statements.sessionRow.get(...names);
      if (row === undefined) throw sessionNotFoundError(key);
      const next = applyStatusChange(key.sessionId, summaryOf(row), change);
      this.#statements.setStatus.run(next.status, next.statusTime, next.turns - row.turns, ...names);
      return { ...summaryOf(row), ...next };
    }).immediate;
  }

  /** @throws {AdkError} code `SESSION_EXISTS` when the id is taken, `INVALID_ARGUMENT` for empty names. */
  async create(options: {
    readonly appName: string;
    readonly userId: string;
    readonly sessionId?: string;
    readonly state?: Readonly<Record<string, unknown>>;
  }): Promise<Session> {
    const key: SessionKey = newSessionKey(options);
    const created = this.#create(key, Date.now(), toSqlWrites(toStateWrites(options.state)));
    if (created === undefined) throw sessionNotFoundError(key);
    return created;
  }

  /** @throws {AdkError} code `INVALID_ARGUMENT` when `recentEvents` is negative or not an integer. */
  async get(key: SessionKey, options: GetSessionOptions = {}): Promise<Session | undefined> {
    assertGetSessionOptions(options);
    return this.#load(key, options);
  }

  /** @throws {AdkError} code `INVALID_ARGUMENT` for an unknown status. */
  async list(options: SessionStatusQuery): Promise<SessionSummary[]> {
    const statuses = statusFilter(options);
    return this.#statements.listSessions
      .all({
        app: options.appName,
        user: options.userId ?? null,
        statuses: statuses ? JSON.stringify(statuses) : null,
      })
      .map(summaryOf);
  }

  /**
   * Sets the status in one immediate transaction (a compare-and-set across processes on one file).
   *
   * @throws {AdkError} code `SESSION_NOT_FOUND` for an unknown session; `SessionStatusError` when
   * `change.expect` does not hold the status.
   */
  async setStatus(key: SessionKey, change: SessionStatusChange): Promise<SessionSummary> {
    return this.#setStatus(key, change);
  }

  async delete(key: SessionKey): Promise<void> {
    this.#delete(key);
  }

  /**
   * Commits a non-partial event in one transaction and returns the stored form (without `temp:` keys);
   * a partial event is returned as is. The given event is never changed.
   *
   * @throws {AdkError} code `SESSION_NOT_FOUND` for an unknown session, `INVALID_ARGUMENT` for an event
   * without id or timestamp, with an id already committed to the session, or with values that are not JSON.
   */
  async appendEvent(key: SessionKey, event: AgentEvent): Promise<AgentEvent> {
    if (event.partial === true) return event;
    assertSessionNames(key);
    assertCommittableEvent(event);
    const committed = toCommittedEvent(event);
    const payload = toJsonText(committed, `event "${event.id}"`);
    const stored = JSON.parse(payload) as AgentEvent;
    this.#commit(key, stored, payload, toSqlWrites(toStateWrites(stored.actions.stateDelta)));
    return stored;
  }

  /** Closes the database if this service opened it. */
  async close(): Promise<void> {
    if (this.#ownsDatabase && this.#db.open) this.#db.close();
  }

  #commitInTransaction(key: SessionKey, event: AgentEvent, payload: string, writes: SqlWrite[]): void {
    const names = [key.appName, key.userId, key.sessionId];
    if (this.#statements.sessionRow.get(...names) === undefined) throw sessionNotFoundError(key);
    try {
      this.#statements.insertEvent.run(...names, event.id, event.timestamp, payload);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_CONSTRAINT_UNIQUE') throw error;
      throw duplicateEventError(key.sessionId, event.id, error);
    }
    this.#applyWrites(key, writes, event);
    this.#statements.touchSession.run(event.timestamp, ...names);
  }

  #createInTransaction(key: SessionKey, now: number, writes: SqlWrite[]): Session | undefined {
    try {
      this.#statements.insertSession.run(key.appName, key.userId, key.sessionId, now, now, now);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') throw error;
      throw sessionExistsError(key, error);
    }
    this.#applyWrites(key, writes, { timestamp: now, id: '' });
    return this.#loadInTransaction(key, {});
  }

  #applyWrites(key: SessionKey, writes: readonly SqlWrite[], stamp: WriteStamp): void {
    for (const { write, valueText } of writes) {
      const owner = scopeOwner(write.scope, key);
      this.#statements.upsert[write.scope].run(...owner, write.key, valueText, stamp.timestamp, stamp.id);
    }
  }

  #loadInTransaction(key: SessionKey, options: GetSessionOptions): Session | undefined {
    const statements = this.#statements;
    const row = statements.sessionRow.get(key.appName, key.userId, key.sessionId);
    if (row === undefined) return undefined;
    const rows = [
      ...statements.state.app.all(...scopeOwner('app', key)),
      ...statements.state.user.all(...scopeOwner('user', key)),
      ...statements.state.session.all(...scopeOwner('session', key)),
    ];
    const state = Object.fromEntries(rows.map((stateRow) => [stateRow.key, JSON.parse(stateRow.value)]));
    const after = options.afterTimestamp ?? null;
    const limit = options.recentEvents ?? -1;
    const payloads = statements.events.all(key.appName, key.userId, key.sessionId, after, after, limit);
    const events = payloads.reverse().map((eventRow) => JSON.parse(eventRow.payload) as AgentEvent);
    return { ...summaryOf(row), state, events };
  }
}

function summaryOf(row: SessionRow): SessionSummary {
  return {
    appName: row.app_name,
    userId: row.user_id,
    sessionId: row.session_id,
    lastUpdateTime: row.last_update_time,
    status: row.status as SessionStatus,
    statusTime: row.status_time,
    turns: row.turns,
  };
}

function toSqlWrites(writes: readonly StateWrite[]): SqlWrite[] {
  return writes.map((write) => ({
    write,
    valueText: write.value === null ? null : toJsonText(write.value, `state key "${write.key}"`),
  }));
}
