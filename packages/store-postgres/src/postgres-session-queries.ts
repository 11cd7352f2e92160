import type { StateScope } from '@weft/adk/session-store';
import type { PostgresTables } from './postgres-schema.js';

/**
 * The SQL of a PostgreSQL session service for one table set. Session names are `$1` app, `$2` user,
 * `$3` session throughout.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const sql: SessionQueries = sessionQueries(postgresTables('public', 'weft_'));
 * const client = await pool.connect();
 * await client.query('BEGIN');
 * await client.query(sql.lockSession, ['shop', 'u1', 's1']); // the session row stays locked until COMMIT
 * await client.query('COMMIT');
 * client.release();
 * ```
 */
export interface SessionQueries {
  /** `$4` creation time. No row returned when the id is taken. */
  readonly insertSession: string;
  /** Locks the session row until the transaction ends (serializes appends across processes). */
  readonly lockSession: string;
  /** `$4` event id, `$5` time, `$6` payload. No row returned when the id is already committed. */
  readonly insertEvent: string;
  /** `$4` event time. */
  readonly touchSession: string;
  /** `$4` afterTimestamp or null, `$5` limit or null: last update time, live state pairs, event payloads. */
  readonly load: string;
  /** `$1` app, `$2` user or null (all), `$3` statuses (text[]) or null (all). */
  readonly list: string;
  /** Locks the session row and returns its summary columns. */
  readonly lockSummary: string;
  /** `$4` status, `$5` status time, `$6` turns. */
  readonly setStatus: string;
  readonly deleteEvents: string;
  readonly deleteSessionState: string;
  readonly deleteSession: string;
  /** Per scope: owner names, then keys, values (null deletes), written_at, written_id. */
  readonly upsert: Readonly<Record<StateScope, string>>;
}

const SESSION = 'app_name = $1 AND user_id = $2 AND session_id = $3';
const SUMMARY = 'app_name, user_id, session_id, last_update_time, status, status_time, turns';

/**
 * Builds the SQL of {@link SessionQueries}. The upserts carry the late-commit rule: a stored key is only
 * replaced by a write at least as new (`written_at`, then `written_id`); they write keys in the order
 * given (sorted by the caller), so concurrent commits lock rows in one order and cannot deadlock.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const { upsert } = sessionQueries(postgresTables('public', 'weft_'));
 * await pool.query(upsert.app, ['shop', ['app:theme'], ['"dark"'], Date.now(), 'event-1']);
 * ```
 */
export function sessionQueries(tables: PostgresTables): SessionQueries {
  const { sessions, sessionEvents, appState, userState, sessionState } = tables;
  return {
    insertSession: `INSERT INTO ${sessions} (app_name, user_id, session_id, created_at, last_update_time, status, status_time)
      VALUES ($1, $2, $3, $4, $4, 'idle', $4) ON CONFLICT DO NOTHING RETURNING session_id`,
    lockSession: `SELECT session_id FROM ${sessions} WHERE ${SESSION} FOR UPDATE`,
    insertEvent: `INSERT INTO ${sessionEvents} (app_name, user_id, session_id, event_id, event_time, payload)
      VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING seq`,
    touchSession: `UPDATE ${sessions} SET last_update_time = greatest(last_update_time, $4) WHERE ${SESSION}`,
    load: `SELECT s.last_update_time, s.status, s.status_time, s.turns,
        (SELECT coalesce(json_agg(json_build_array(k.key, k.value)), '[]'::json) FROM (
          SELECT key, value FROM ${appState} WHERE app_name = $1 AND value IS NOT NULL
          UNION ALL SELECT key, value FROM ${userState} WHERE app_name = $1 AND user_id = $2 AND value IS NOT NULL
          UNION ALL SELECT key, value FROM ${sessionState} WHERE ${SESSION} AND value IS NOT NULL
        ) k) AS state,
        (SELECT coalesce(json_agg(e.payload ORDER BY e.seq), '[]'::json) FROM (
          SELECT seq, payload FROM ${sessionEvents}
          WHERE ${SESSION} AND ($4::double precision IS NULL OR event_time > $4::double precision)
          ORDER BY seq DESC LIMIT $5::bigint
        ) e) AS events
      FROM ${sessions} s WHERE s.app_name = $1 AND s.user_id = $2 AND s.session_id = $3`,
    list: `SELECT ${SUMMARY} FROM ${sessions}
      WHERE app_name = $1 AND ($2::text IS NULL OR user_id = $2::text)
        AND ($3::text[] IS NULL OR status = ANY($3::text[]))
      ORDER BY last_update_time DESC, session_id ASC`,
    lockSummary: `SELECT ${SUMMARY} FROM ${sessions} WHERE ${SESSION} FOR UPDATE`,
    setStatus: `UPDATE ${sessions} SET status = $4, status_time = $5, turns = $6 WHERE ${SESSION}`,
    deleteEvents: `DELETE FROM ${sessionEvents} WHERE ${SESSION}`,
    deleteSessionState: `DELETE FROM ${sessionState} WHERE ${SESSION}`,
    deleteSession: `DELETE FROM ${sessions} WHERE ${SESSION}`,
    upsert: {
      app: upsert(appState, ['app_name']),
      user: upsert(userState, ['app_name', 'user_id']),
      session: upsert(sessionState, ['app_name', 'user_id', 'session_id']),
    },
  };
}

function upsert(table: string, owner: readonly string[]): string {
  const columns = owner.join(', ');
  const values = owner.map((_, index) => `$${index + 1}::text`).join(', ');
  const next = owner.length + 1;
  return `INSERT INTO ${table} AS t (${columns}, key, value, written_at, written_id)
    SELECT ${values}, u.key, u.value, $${next + 2}::double precision, $${next + 3}::text
    FROM unnest($${next}::text[], $${next + 1}::text[]) WITH ORDINALITY AS u(key, value, n) ORDER BY u.n
    ON CONFLICT (${columns}, key) DO UPDATE
    SET value = EXCLUDED.value, written_at = EXCLUDED.written_at, written_id = EXCLUDED.written_id
    WHERE EXCLUDED.written_at > t.written_at
       OR (EXCLUDED.written_at = t.written_at AND EXCLUDED.written_id >= t.written_id)`;
}
