import {
  AdkError,
  type AgentEvent,
  type GetSessionOptions,
  type Session,
  type SessionKey,
  type SessionService,
  type SessionStatus,
  type SessionSummary,
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
  type StateScope,
  type StateWrite,
  sessionExistsError,
  sessionNotFoundError,
  statusFilter,
  toCommittedEvent,
  toJsonText,
  toStateWrites,
  type WriteStamp,
} from '@weft/adk/session-store';
import type { Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';
import { type PostgresConnectionOptions, postgresConnection } from './postgres-connection.js';
import { type PostgresTables, setupPostgresSchema } from './postgres-schema.js';
import { type SessionQueries, sessionQueries } from './postgres-session-queries.js';
import { statementPrefix } from './statement-prefix.js';

/**
 * Options of {@link PostgresSessionService}: a pool (yours) or a connection string (a pool it owns).
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const options: PostgresSessionServiceOptions = { pool, schema: 'agents', tablePrefix: 'shop_' };
 * ```
 */
export type PostgresSessionServiceOptions = PostgresConnectionOptions;

type Queryable = Pool | PoolClient;

interface LoadRow {
  last_update_time: number;
  status: string;
  status_time: number;
  turns: number;
  state: [string, string][];
  events: string[];
}

interface SummaryRow {
  app_name: string;
  user_id: string;
  session_id: string;
  last_update_time: number;
  status: string;
  status_time: number;
  turns: number;
}

const UNDEFINED_TABLE = '42P01';
const SCOPES: readonly StateScope[] = ['app', 'user', 'session'];

/**
 * A {@link SessionService} in PostgreSQL on `pg`, for many processes and machines, with the commit
 * contract of `@weft/adk` (see `SessionService`): `app:`/`user:`/session keys in their scopes, `temp:`
 * keys never stored, `null`/`undefined` deleting a key, partial events not stored, and late commits
 * refused per key by the upsert's `WHERE` clause. Each append is one transaction that first locks the
 * session row (`SELECT ... FOR UPDATE`), so appends to one session serialize across processes. It shares
 * tables, `schema`, `tablePrefix` and {@link PostgresSessionService.setup} with `PostgresCheckpointer`.
 *
 * @example
 * ```ts
 * import { PostgresSessionService } from '@weft/store-postgres';
 *
 * const sessions = new PostgresSessionService({ connectionString: process.env.DATABASE_URL! });
 * await sessions.setup();
 * const session = await sessions.create({ appName: 'shop', userId: 'u1' });
 * await sessions.appendEvent(session, {
 *   id: '0001',
 *   invocationId: 'i1',
 *   author: 'agent',
 *   timestamp: Date.now(),
 *   actions: { stateDelta: { cart: ['apple'] } },
 * });
 * await sessions.close();
 * ```
 */
export class PostgresSessionService implements SessionService {
  readonly #pool: Pool;
  readonly #ownsPool: boolean;
  readonly #tables: PostgresTables;
  readonly #sql: SessionQueries;
  readonly #statementPrefix: string;

  /** @throws {WeftError} code `INVALID_ARGUMENT` when the schema or table prefix is not a plain identifier. */
  constructor(options: PostgresSessionServiceOptions) {
    const { pool, ownsPool, tables } = postgresConnection(options);
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    this.#tables = tables;
    this.#sql = sessionQueries(tables);
    this.#statementPrefix = `${statementPrefix(tables)}_session`;
  }

  /**
   * Creates or upgrades the tables (checkpoints and sessions); the same setup as `PostgresCheckpointer`,
   * idempotent and safe to call from many processes at once.
   *
   * @throws {WeftError} code `CHECKPOINT` when the tables were written by a newer version of this package.
   * @example
   * ```ts
   * import pg from 'pg';
   * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
   * await new PostgresSessionService({ pool, schema: 'agents' }).setup(); // idempotent: once per deployment
   * ```
   */
  async setup(): Promise<void> {
    await setupPostgresSchema(this.#pool, this.#tables);
  }

  /** @throws {AdkError} code `SESSION_EXISTS` when the id is taken, `INVALID_ARGUMENT` for empty names. */
  async create(options: {
    readonly appName: string;
    readonly userId: string;
    readonly sessionId?: string;
    readonly state?: Readonly<Record<string, unknown>>;
  }): Promise<Session> {
    const key: SessionKey = newSessionKey(options);
    const writes = toStateWrites(options.state);
    const texts = writes.map(valueText);
    const now = Date.now();
    return this.#transaction(async (client) => {
      const inserted = await this.#run(client, 'create', this.#sql.insertSession, [...names(key), now]);
      if (inserted.rowCount === 0) throw sessionExistsError(key);
      await this.#applyWrites(client, key, { writes, texts }, { timestamp: now, id: '' });
      const created = await this.#load(client, key, {});
      if (created === undefined) throw sessionNotFoundError(key);
      return created;
    });
  }

  /** @throws {AdkError} code `INVALID_ARGUMENT` when `recentEvents` is negative or not an integer. */
  async get(key: SessionKey, options: GetSessionOptions = {}): Promise<Session | undefined> {
    assertGetSessionOptions(options);
    return this.#load(this.#pool, key, options);
  }

  /** @throws {AdkError} code `INVALID_ARGUMENT` for an unknown status. */
  async list(options: SessionStatusQuery): Promise<SessionSummary[]> {
    const statuses = statusFilter(options);
    const { rows } = await this.#run<SummaryRow>(this.#pool, 'list', this.#sql.list, [
      options.appName,
      options.userId ?? null,
      statuses ? [...statuses] : null,
    ]);
    return rows.map(summaryOf);
  }

  /**
   * Sets the status in one transaction holding the session row's lock (a compare-and-set across
   * processes).
   *
   * @throws {AdkError} code `SESSION_NOT_FOUND` for an unknown session; `SessionStatusError` when
   * `change.expect` does not hold the status.
   */
  async setStatus(key: SessionKey, change: SessionStatusChange): Promise<SessionSummary> {
    return this.#transaction(async (client) => {
      const { rows } = await this.#run<SummaryRow>(client, 'lock_summary', this.#sql.lockSummary, names(key));
      const row = rows[0];
      if (row === undefined) throw sessionNotFoundError(key);
      const next = applyStatusChange(key.sessionId, summaryOf(row), change);
      await this.#run(client, 'set_status', this.#sql.setStatus, [
        ...names(key),
        next.status,
        next.statusTime,
        next.turns,
      ]);
      return { ...summaryOf(row), ...next };
    });
  }

  async delete(key: SessionKey): Promise<void> {
    await this.#transaction(async (client) => {
      // Waits for an append in flight, so its event and keys are deleted too.
      const locked = await this.#run(client, 'lock', this.#sql.lockSession, names(key));
      if (locked.rowCount === 0) return;
      await this.#run(client, 'delete_events', this.#sql.deleteEvents, names(key));
      await this.#run(client, 'delete_state', this.#sql.deleteSessionState, names(key));
      await this.#run(client, 'delete', this.#sql.deleteSession, names(key));
    });
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
    const payload = toJsonText(toCommittedEvent(event), `event "${event.id}"`);
    const stored = JSON.parse(payload) as AgentEvent;
    const writes = toStateWrites(stored.actions.stateDelta);
    const texts = writes.map(valueText);
    await this.#transaction(async (client) => {
      const locked = await this.#run(client, 'lock', this.#sql.lockSession, names(key));
      if (locked.rowCount === 0) throw sessionNotFoundError(key);
      const values = [...names(key), stored.id, stored.timestamp, payload];
      const inserted = await this.#run(client, 'insert_event', this.#sql.insertEvent, values);
      if (inserted.rowCount === 0) throw duplicateEventError(key.sessionId, stored.id);
      await this.#applyWrites(client, key, { writes, texts }, stored);
      await this.#run(client, 'touch', this.#sql.touchSession, [...names(key), stored.timestamp]);
    });
    return stored;
  }

  /** Ends the pool if this service created it (from a connection string); a pool you passed stays open. */
  async close(): Promise<void> {
    if (this.#ownsPool && !this.#pool.ended) await this.#pool.end();
  }

  /** Upserts state writes (`texts[i]` is the JSON text of `writes[i]`, `null` to delete) under `stamp`. */
  async #applyWrites(
    client: PoolClient,
    key: SessionKey,
    encoded: { readonly writes: readonly StateWrite[]; readonly texts: readonly (string | null)[] },
    stamp: WriteStamp,
  ): Promise<void> {
    const { writes, texts } = encoded;
    // One statement per scope, keys in the sorted order of `toStateWrites` (a global lock order).
    for (const scope of SCOPES) {
      const indexes = writes.flatMap((write, index) => (write.scope === scope ? [index] : []));
      if (indexes.length === 0) continue;
      const owner = names(key).slice(0, scope === 'app' ? 1 : scope === 'user' ? 2 : 3);
      const keys = indexes.map((index) => writes[index]!.key);
      const values = indexes.map((index) => texts[index]!);
      await this.#run(client, `upsert_${scope}`, this.#sql.upsert[scope], [
        ...owner,
        keys,
        values,
        stamp.timestamp,
        stamp.id,
      ]);
    }
  }

  async #load(db: Queryable, key: SessionKey, options: GetSessionOptions): Promise<Session | undefined> {
    const values = [...names(key), options.afterTimestamp ?? null, options.recentEvents ?? null];
    const { rows } = await this.#run<LoadRow>(db, 'load', this.#sql.load, values);
    const row = rows[0];
    if (row === undefined) return undefined;
    const state = Object.fromEntries(row.state.map(([name, text]) => [name, JSON.parse(text) as unknown]));
    const events = row.events.map((text) => JSON.parse(text) as AgentEvent);
    const { appName, userId, sessionId } = key;
    const summary = summaryOf({ ...row, app_name: appName, user_id: userId, session_id: sessionId });
    return { ...summary, state, events };
  }

  async #run<TRow extends QueryResultRow>(
    db: Queryable,
    name: string,
    text: string,
    values: unknown[],
  ): Promise<QueryResult<TRow>> {
    try {
      return await db.query<TRow>({ name: `${this.#statementPrefix}_${name}`, text, values });
    } catch (error) {
      if ((error as { code?: unknown }).code !== UNDEFINED_TABLE) throw error;
      throw new AdkError(
        'SESSION_STORE',
        `the session tables ${this.#tables.sessions} do not exist; call await sessions.setup() once before use`,
        { cause: error },
      );
    }
  }

  async #transaction<TResult>(work: (client: PoolClient) => Promise<TResult>): Promise<TResult> {
    const client = await this.#pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }
}

function summaryOf(row: SummaryRow): SessionSummary {
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

function names(key: SessionKey): [string, string, string] {
  return [key.appName, key.userId, key.sessionId];
}

function valueText(write: StateWrite): string | null {
  return write.value === null ? null : toJsonText(write.value, `state key "${write.key}"`);
}
