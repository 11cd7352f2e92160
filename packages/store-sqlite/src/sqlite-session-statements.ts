import type { StateScope } from '@weft/adk/session-store';
import type { Database, Statement } from 'better-sqlite3';

/**
 * A session row for listings.
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * const db = new Database(':memory:');
 * new SqliteSessionService({ database: db }); // creates the tables
 * const statements = prepareSessionStatements(db);
 * const row: SessionRow | undefined = statements.sessionRow.get('shop', 'u1', 's1');
 * row?.turns; // undefined: no session 's1' yet
 * ```
 */
export interface SessionRow {
  app_name: string;
  user_id: string;
  session_id: string;
  last_update_time: number;
  status: string;
  status_time: number;
  turns: number;
}

/**
 * A live (not deleted) state key, its value as JSON text.
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * const db = new Database(':memory:');
 * new SqliteSessionService({ database: db }); // creates the tables
 * const statements = prepareSessionStatements(db);
 * statements.upsert.app.run('shop', 'app:theme', '"dark"', Date.now(), 'event-1');
 * const rows: StateRow[] = statements.state.app.all('shop'); // the app-scoped keys of 'shop'
 * ```
 */
export interface StateRow {
  key: string;
  value: string;
}

/** Where each scope's keys live and which session names own them. */
const SCOPE_TABLES: Readonly<Record<StateScope, { readonly table: string; readonly owner: string }>> = {
  app: { table: 'weft_app_state', owner: 'app_name' },
  user: { table: 'weft_user_state', owner: 'app_name, user_id' },
  session: { table: 'weft_session_state', owner: 'app_name, user_id, session_id' },
};

const SESSION = 'app_name = ? AND user_id = ? AND session_id = ?';
const SUMMARY = 'app_name, user_id, session_id, last_update_time, status, status_time, turns';

/**
 * The prepared statements of a SQLite session service, prepared once per database.
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * const db = new Database(':memory:');
 * new SqliteSessionService({ database: db }); // creates the tables
 * const statements: SessionStatements = prepareSessionStatements(db);
 * statements.sessionRow.get('shop', 'u1', 's1'); // a SessionRow, or undefined
 * ```
 */
export interface SessionStatements {
  readonly insertSession: Statement<unknown[]>;
  readonly sessionRow: Statement<unknown[], SessionRow>;
  readonly touchSession: Statement<unknown[]>;
  /** Params `{ app, user (null: all), statuses (a JSON array; null: all) }`. */
  readonly listSessions: Statement<unknown[], SessionRow>;
  /** Params: status, status_time, turns to add, then the session's three names. */
  readonly setStatus: Statement<unknown[]>;
  readonly insertEvent: Statement<unknown[]>;
  /** Params: the session's three names, afterTimestamp (or null) twice, limit (-1 for all). Newest first. */
  readonly events: Statement<unknown[], { payload: string }>;
  /** Per scope: owner names, key, value JSON (null deletes), written_at, written_id. */
  readonly upsert: Readonly<Record<StateScope, Statement<unknown[]>>>;
  /** Per scope: the owner names → live keys. */
  readonly state: Readonly<Record<StateScope, Statement<unknown[], StateRow>>>;
  readonly deleteEvents: Statement<unknown[]>;
  readonly deleteSessionState: Statement<unknown[]>;
  readonly deleteSession: Statement<unknown[]>;
}

/**
 * Prepares every statement of the session service. The upserts carry the late-commit rule: a stored key
 * is only replaced by a write at least as new (`written_at`, then `written_id`).
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * const db = new Database(':memory:');
 * new SqliteSessionService({ database: db }); // creates the tables
 * const { upsert } = prepareSessionStatements(db);
 * upsert.app.run('shop', 'app:theme', '"dark"', Date.now(), 'event-1');
 * ```
 */
export function prepareSessionStatements(db: Database): SessionStatements {
  const perScope = <TStatement>(make: (scope: StateScope) => TStatement): Record<StateScope, TStatement> => ({
    app: make('app'),
    user: make('user'),
    session: make('session'),
  });
  return {
    insertSession: db.prepare(
      `INSERT INTO weft_sessions (app_name, user_id, session_id, created_at, last_update_time, status, status_time)
       VALUES (?, ?, ?, ?, ?, 'idle', ?)`,
    ),
    sessionRow: db.prepare(`SELECT ${SUMMARY} FROM weft_sessions WHERE ${SESSION}`),
    setStatus: db.prepare(
      `UPDATE weft_sessions SET status = ?, status_time = ?, turns = turns + ? WHERE ${SESSION}`,
    ),
    touchSession: db.prepare(
      `UPDATE weft_sessions SET last_update_time = max(last_update_time, ?) WHERE ${SESSION}`,
    ),
    listSessions: db.prepare(
      `SELECT ${SUMMARY} FROM weft_sessions
       WHERE app_name = @app AND (@user IS NULL OR user_id = @user)
         AND (@statuses IS NULL OR status IN (SELECT value FROM json_each(@statuses)))
       ORDER BY last_update_time DESC, session_id ASC`,
    ),
    insertEvent: db.prepare(
      `INSERT INTO weft_session_events (app_name, user_id, session_id, event_id, event_time, payload)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    events: db.prepare(
      `SELECT payload FROM weft_session_events WHERE ${SESSION} AND (? IS NULL OR event_time > ?)
       ORDER BY seq DESC LIMIT ?`,
    ),
    upsert: perScope((scope) => prepareUpsert(db, scope)),
    state: perScope((scope) => {
      const { table, owner } = SCOPE_TABLES[scope];
      const where = owner
        .split(', ')
        .map((column) => `${column} = ?`)
        .join(' AND ');
      return db.prepare<unknown[], StateRow>(
        `SELECT key, value FROM ${table} WHERE ${where} AND value IS NOT NULL ORDER BY key`,
      );
    }),
    deleteEvents: db.prepare(`DELETE FROM weft_session_events WHERE ${SESSION}`),
    deleteSessionState: db.prepare(`DELETE FROM weft_session_state WHERE ${SESSION}`),
    deleteSession: db.prepare(`DELETE FROM weft_sessions WHERE ${SESSION}`),
  };
}

function prepareUpsert(db: Database, scope: StateScope): Statement<unknown[]> {
  const { table, owner } = SCOPE_TABLES[scope];
  const placeholders = owner
    .split(', ')
    .map(() => '?')
    .join(', ');
  return db.prepare(
    `INSERT INTO ${table} (${owner}, key, value, written_at, written_id) VALUES (${placeholders}, ?, ?, ?, ?)
     ON CONFLICT (${owner}, key) DO UPDATE
     SET value = excluded.value, written_at = excluded.written_at, written_id = excluded.written_id
     WHERE excluded.written_at > ${table}.written_at
        OR (excluded.written_at = ${table}.written_at AND excluded.written_id >= ${table}.written_id)`,
  );
}

/**
 * The names that own a scope's keys, in the column order of its table.
 *
 * @example
 * ```ts
 * scopeOwner('user', { appName: 'shop', userId: 'u1', sessionId: 's1' }); // ['shop', 'u1']
 * ```
 */
export function scopeOwner(
  scope: StateScope,
  key: { readonly appName: string; readonly userId: string; readonly sessionId: string },
): string[] {
  if (scope === 'app') return [key.appName];
  if (scope === 'user') return [key.appName, key.userId];
  return [key.appName, key.userId, key.sessionId];
}
