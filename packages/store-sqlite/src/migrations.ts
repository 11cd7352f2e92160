import { WeftError } from '@weft/compose';
import type { Database } from 'better-sqlite3';

/**
 * The schema of a `@weft/store-sqlite` database, one entry per version (`PRAGMA user_version`). The list
 * belongs to the whole package: stores that share a file (the checkpointer and the session service) add
 * their tables as new entries here, never by editing an applied one.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE weft_checkpoints (
    thread_id  TEXT NOT NULL,
    ns         TEXT NOT NULL,
    id         TEXT NOT NULL,
    parent_id  TEXT,
    base_id    TEXT NOT NULL,
    step       INTEGER NOT NULL,
    source     TEXT NOT NULL,
    created_at TEXT NOT NULL,
    metadata   TEXT NOT NULL,
    payload    TEXT NOT NULL,
    PRIMARY KEY (thread_id, ns, id)
  );
  CREATE INDEX weft_checkpoints_base ON weft_checkpoints (thread_id, ns, base_id, id);
  CREATE TABLE weft_checkpoint_writes (
    seq           INTEGER PRIMARY KEY,
    thread_id     TEXT NOT NULL,
    ns            TEXT NOT NULL,
    checkpoint_id TEXT NOT NULL,
    task_id       TEXT NOT NULL,
    payload       TEXT NOT NULL,
    UNIQUE (thread_id, ns, checkpoint_id, task_id)
  );
  `,
  // 2: the session service. State is one row per key, stamped with the event that last wrote it
  // (written_at, written_id), so a late commit is refused by the upsert's WHERE clause; value NULL is a
  // deleted key, kept so a late commit cannot bring it back.
  `
  CREATE TABLE weft_sessions (
    app_name         TEXT NOT NULL,
    user_id          TEXT NOT NULL,
    session_id       TEXT NOT NULL,
    created_at       REAL NOT NULL,
    last_update_time REAL NOT NULL,
    PRIMARY KEY (app_name, user_id, session_id)
  );
  CREATE INDEX weft_sessions_recent ON weft_sessions (app_name, user_id, last_update_time);
  CREATE TABLE weft_session_events (
    seq        INTEGER PRIMARY KEY,
    app_name   TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    session_id TEXT NOT NULL,
    event_id   TEXT NOT NULL,
    event_time REAL NOT NULL,
    payload    TEXT NOT NULL,
    UNIQUE (app_name, user_id, session_id, event_id)
  );
  CREATE INDEX weft_session_events_order ON weft_session_events (app_name, user_id, session_id, seq);
  CREATE TABLE weft_app_state (
    app_name   TEXT NOT NULL,
    key        TEXT NOT NULL,
    value      TEXT,
    written_at REAL NOT NULL,
    written_id TEXT NOT NULL,
    PRIMARY KEY (app_name, key)
  );
  CREATE TABLE weft_user_state (
    app_name   TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    key        TEXT NOT NULL,
    value      TEXT,
    written_at REAL NOT NULL,
    written_id TEXT NOT NULL,
    PRIMARY KEY (app_name, user_id, key)
  );
  CREATE TABLE weft_session_state (
    app_name   TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    session_id TEXT NOT NULL,
    key        TEXT NOT NULL,
    value      TEXT,
    written_at REAL NOT NULL,
    written_id TEXT NOT NULL,
    PRIMARY KEY (app_name, user_id, session_id, key)
  );
  `,
  // 3: one writer per thread. Checkpoints are ordered by a per-thread/namespace position (seq), unique so a
  // racing writer's put fails; existing rows get their position from the old id order. A claim row per
  // thread names the process holding it (pid and start identity), so a claim of a dead process is taken over.
  `
  ALTER TABLE weft_checkpoints ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
  UPDATE weft_checkpoints SET seq = ranked.seq
  FROM (
    SELECT thread_id, ns, id, row_number() OVER (PARTITION BY thread_id, ns ORDER BY id) AS seq
    FROM weft_checkpoints
  ) AS ranked
  WHERE weft_checkpoints.thread_id = ranked.thread_id AND weft_checkpoints.ns = ranked.ns
    AND weft_checkpoints.id = ranked.id;
  CREATE UNIQUE INDEX weft_checkpoints_seq ON weft_checkpoints (thread_id, ns, seq);
  CREATE TABLE weft_thread_claims (
    thread_id     TEXT PRIMARY KEY,
    token         TEXT NOT NULL,
    pid           INTEGER NOT NULL,
    process_start TEXT NOT NULL
  );
  `,
  // 4: the long-term document store. `ns` is the namespace joined by '.', so a prefix is a range of the
  // primary key; `vectors` holds the indexed fields' embeddings as consecutive float32 arrays of `dims`.
  `
  CREATE TABLE weft_store (
    ns         TEXT NOT NULL,
    key        TEXT NOT NULL,
    value      TEXT NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    expires_at REAL,
    dims       INTEGER,
    vectors    BLOB,
    PRIMARY KEY (ns, key)
  );
  CREATE INDEX weft_store_recent ON weft_store (updated_at);
  CREATE INDEX weft_store_expiry ON weft_store (expires_at) WHERE expires_at IS NOT NULL;
  `,
  // 5: payload checksums ('sha256:' + hex, stamped by the engine and checked on every read). Rows written
  // before keep NULL and load unchecked.
  `
  ALTER TABLE weft_checkpoints ADD COLUMN checksum TEXT;
  ALTER TABLE weft_checkpoint_writes ADD COLUMN checksum TEXT;
  `,
  // 6: the session state machine. A session's status (idle, running, waiting, failed, finished), when it
  // was set (a waiting session waits since then) and its turn count; existing sessions are idle since
  // their last update. The index serves listings by status (the waiting-timeout sweep).
  `
  ALTER TABLE weft_sessions ADD COLUMN status TEXT NOT NULL DEFAULT 'idle';
  ALTER TABLE weft_sessions ADD COLUMN status_time REAL NOT NULL DEFAULT 0;
  ALTER TABLE weft_sessions ADD COLUMN turns INTEGER NOT NULL DEFAULT 0;
  UPDATE weft_sessions SET status_time = last_update_time;
  CREATE INDEX weft_sessions_status ON weft_sessions (app_name, status, status_time);
  `,
  // 7: a durable step writes one b-tree less. The (thread_id, ns, base_id, id) index served only
  // list({ baseId }) at load, and each b-tree a commit touches adds a page to the WAL (one insert with it
  // cost 1.25× one without, measured in one process on the 2-core machine); the listing now walks the
  // seq index from the base's own position (a checkpoint is stored after the snapshot it builds on).
  `
  DROP INDEX weft_checkpoints_base;
  `,
  // 8: fencing (ADR 030). A claim row outlives its release and counts the thread's claims (`epoch`, the
  // fencing token every write of the holder is checked against); `owner` names the holder's owner lock
  // file, whose OS lock tells whether it is alive in any PID namespace of the machine. A released row has
  // an empty token.
  `
  ALTER TABLE weft_thread_claims ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE weft_thread_claims ADD COLUMN owner TEXT NOT NULL DEFAULT '';
  `,
];

/**
 * The schema version this package writes (`PRAGMA user_version` after {@link migrate}).
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * const db = new Database(':memory:');
 * migrate(db);
 * db.pragma('user_version', { simple: true }) === SQLITE_SCHEMA_VERSION; // true once migrated
 * ```
 */
export const SQLITE_SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings a database up to {@link SQLITE_SCHEMA_VERSION}, applying the missing migrations in one immediate
 * transaction (so two processes opening one file at once do not both migrate).
 *
 * @throws {WeftError} code `CHECKPOINT` when the file was written by a newer version of this package.
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * const db = new Database('weft.db');
 * migrate(db); // creates or upgrades the tables; a no-op on a database already at SQLITE_SCHEMA_VERSION
 * const checkpointer = new SqliteCheckpointer({ database: db }); // shares the connection, does not close it
 * ```
 */
export function migrate(db: Database): void {
  const apply = db.transaction(() => {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > MIGRATIONS.length) {
      throw new WeftError(
        'CHECKPOINT',
        `the SQLite database has schema version ${current}, newer than this @weft/store-sqlite supports (${MIGRATIONS.length}); upgrade @weft/store-sqlite`,
      );
    }
    for (let version = current; version < MIGRATIONS.length; version++) db.exec(MIGRATIONS[version]!);
    if (current !== MIGRATIONS.length) db.pragma(`user_version = ${MIGRATIONS.length}`);
  });
  apply.immediate();
}
