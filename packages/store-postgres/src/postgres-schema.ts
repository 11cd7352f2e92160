import { WeftError } from '@weft/compose';
import type { Pool } from 'pg';

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const TABLE_PREFIX = /^([A-Za-z_][A-Za-z0-9_]{0,40})?$/;

/**
 * Quoted, schema-qualified names of the tables of one store (checkpoints and sessions share them).
 *
 * @example
 * ```ts
 * const tables = postgresTables('public', 'weft_');
 * tables.checkpoints; // '"public"."weft_checkpoints"'
 * ```
 */
export interface PostgresTables {
  readonly schema: string;
  readonly prefix: string;
  readonly checkpoints: string;
  readonly writes: string;
  readonly migrations: string;
  readonly sessions: string;
  readonly sessionEvents: string;
  readonly appState: string;
  readonly userState: string;
  readonly sessionState: string;
  /** The long-term document store (`PostgresStore`). */
  readonly store: string;
  /** The store's vectors for in-database search (pgvector; created by the store when it has pgvector). */
  readonly storeVectors: string;
  /** Each claimed thread's claim epoch, the fencing token of its writes (ADR 030). */
  readonly threadClaims: string;
}

/**
 * Validates a schema name and table prefix and builds the quoted table names from them.
 *
 * @throws {WeftError} code `INVALID_ARGUMENT` when the schema or prefix is not a plain SQL identifier.
 * @example
 * ```ts
 * postgresTables('agents', 'app1_').writes; // '"agents"."app1_checkpoint_writes"'
 * ```
 */
export function postgresTables(schema: string, prefix: string): PostgresTables {
  if (!SCHEMA_NAME.test(schema)) {
    throw new WeftError(
      'INVALID_ARGUMENT',
      `schema ${JSON.stringify(schema)} is not a plain SQL identifier; use letters, digits and _ (not starting with a digit, at most 63)`,
    );
  }
  if (!TABLE_PREFIX.test(prefix)) {
    throw new WeftError(
      'INVALID_ARGUMENT',
      `tablePrefix ${JSON.stringify(prefix)} is not a plain SQL identifier prefix; use letters, digits and _ (not starting with a digit, at most 41)`,
    );
  }
  const table = (name: string): string => `"${schema}"."${prefix}${name}"`;
  return {
    schema,
    prefix,
    checkpoints: table('checkpoints'),
    writes: table('checkpoint_writes'),
    migrations: table('migrations'),
    sessions: table('sessions'),
    sessionEvents: table('session_events'),
    appState: table('app_state'),
    userState: table('user_state'),
    sessionState: table('session_state'),
    store: table('store'),
    storeVectors: table('store_vectors'),
    threadClaims: table('thread_claims'),
  };
}

/** The schema, one entry per version; never edit an applied entry, add a new one. */
const MIGRATIONS: readonly ((tables: PostgresTables) => string)[] = [
  ({ checkpoints, writes, prefix }) => `
    CREATE TABLE ${checkpoints} (
      thread_id  text NOT NULL,
      ns         text NOT NULL,
      id         text COLLATE "C" NOT NULL,
      parent_id  text COLLATE "C",
      base_id    text COLLATE "C" NOT NULL,
      step       integer NOT NULL,
      source     text NOT NULL,
      created_at text NOT NULL,
      metadata   jsonb NOT NULL,
      payload    text NOT NULL,
      PRIMARY KEY (thread_id, ns, id)
    );
    CREATE INDEX "${prefix}checkpoints_base_idx" ON ${checkpoints} (thread_id, ns, base_id, id);
    CREATE INDEX "${prefix}checkpoints_parent_idx" ON ${checkpoints} (thread_id, ns, parent_id);
    CREATE TABLE ${writes} (
      seq           bigint GENERATED ALWAYS AS IDENTITY,
      thread_id     text NOT NULL,
      ns            text NOT NULL,
      checkpoint_id text COLLATE "C" NOT NULL,
      task_id       text NOT NULL,
      payload       text NOT NULL,
      PRIMARY KEY (thread_id, ns, checkpoint_id, task_id)
    );
  `,
  // 2: the session service. State is one row per key, stamped with the event that last wrote it
  // (written_at, written_id), so a late commit is refused by the upsert's WHERE clause; value NULL is a
  // deleted key, kept so a late commit cannot bring it back. Values and events are JSON text (not jsonb,
  // which would reorder keys and refuse \u0000).
  ({ sessions, sessionEvents, appState, userState, sessionState, prefix }) => `
    CREATE TABLE ${sessions} (
      app_name         text NOT NULL,
      user_id          text NOT NULL,
      session_id       text COLLATE "C" NOT NULL,
      created_at       double precision NOT NULL,
      last_update_time double precision NOT NULL,
      PRIMARY KEY (app_name, user_id, session_id)
    );
    CREATE INDEX "${prefix}sessions_recent_idx" ON ${sessions} (app_name, user_id, last_update_time DESC, session_id);
    CREATE TABLE ${sessionEvents} (
      seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      app_name   text NOT NULL,
      user_id    text NOT NULL,
      session_id text NOT NULL,
      event_id   text NOT NULL,
      event_time double precision NOT NULL,
      payload    text NOT NULL,
      CONSTRAINT "${prefix}session_events_id_key" UNIQUE (app_name, user_id, session_id, event_id)
    );
    CREATE INDEX "${prefix}session_events_seq_idx" ON ${sessionEvents} (app_name, user_id, session_id, seq);
    CREATE TABLE ${appState} (
      app_name   text NOT NULL,
      key        text NOT NULL,
      value      text,
      written_at double precision NOT NULL,
      written_id text COLLATE "C" NOT NULL,
      PRIMARY KEY (app_name, key)
    );
    CREATE TABLE ${userState} (
      app_name   text NOT NULL,
      user_id    text NOT NULL,
      key        text NOT NULL,
      value      text,
      written_at double precision NOT NULL,
      written_id text COLLATE "C" NOT NULL,
      PRIMARY KEY (app_name, user_id, key)
    );
    CREATE TABLE ${sessionState} (
      app_name   text NOT NULL,
      user_id    text NOT NULL,
      session_id text NOT NULL,
      key        text NOT NULL,
      value      text,
      written_at double precision NOT NULL,
      written_id text COLLATE "C" NOT NULL,
      PRIMARY KEY (app_name, user_id, session_id, key)
    );
  `,
  // 3: one writer per thread. Checkpoints are ordered by a per-thread/namespace position (seq), unique so a
  // racing writer's put fails; existing rows get their position from the old id order. Claims are
  // advisory locks and need no table.
  ({ checkpoints, prefix }) => `
    ALTER TABLE ${checkpoints} ADD COLUMN seq integer;
    UPDATE ${checkpoints} AS c SET seq = ranked.seq
    FROM (
      SELECT thread_id, ns, id, row_number() OVER (PARTITION BY thread_id, ns ORDER BY id) AS seq
      FROM ${checkpoints}
    ) AS ranked
    WHERE c.thread_id = ranked.thread_id AND c.ns = ranked.ns AND c.id = ranked.id;
    ALTER TABLE ${checkpoints} ALTER COLUMN seq SET NOT NULL;
    CREATE UNIQUE INDEX "${prefix}checkpoints_seq_idx" ON ${checkpoints} (thread_id, ns, seq);
  `,
  // 4: the long-term document store. `ns` is the namespace joined by '.' (C collation, so a prefix is a
  // range of the primary key); `vectors` holds the indexed fields' embeddings as consecutive float32
  // arrays of `dims` (ranked in process). Values are JSON text, like session state.
  ({ store, prefix }) => `
    CREATE TABLE ${store} (
      ns         text COLLATE "C" NOT NULL,
      key        text COLLATE "C" NOT NULL,
      value      text NOT NULL,
      created_at double precision NOT NULL,
      updated_at double precision NOT NULL,
      expires_at double precision,
      dims       integer,
      vectors    bytea,
      PRIMARY KEY (ns, key)
    );
    CREATE INDEX "${prefix}store_recent_idx" ON ${store} (updated_at DESC, ns, key);
    CREATE INDEX "${prefix}store_expiry_idx" ON ${store} (expires_at) WHERE expires_at IS NOT NULL;
  `,
  // 5: payload checksums ('sha256:' + hex, stamped by the engine and checked on every read); rows written
  // before keep NULL and load unchecked. Verifiable in SQL:
  // checksum = 'sha256:' || encode(sha256(convert_to(payload, 'UTF8')), 'hex').
  ({ checkpoints, writes }) => `
    ALTER TABLE ${checkpoints} ADD COLUMN checksum text;
    ALTER TABLE ${writes} ADD COLUMN checksum text;
  `,
  // 6: the session state machine. A session's status (idle, running, waiting, failed, finished), when it
  // was set (a waiting session waits since then) and its turn count; existing sessions are idle since
  // their last update. The index serves listings by status (the waiting-timeout sweep).
  ({ sessions, prefix }) => `
    ALTER TABLE ${sessions} ADD COLUMN status text NOT NULL DEFAULT 'idle';
    ALTER TABLE ${sessions} ADD COLUMN status_time double precision NOT NULL DEFAULT 0;
    ALTER TABLE ${sessions} ADD COLUMN turns integer NOT NULL DEFAULT 0;
    UPDATE ${sessions} SET status_time = last_update_time;
    CREATE INDEX "${prefix}sessions_status_idx" ON ${sessions} (app_name, status, status_time);
  `,
  // 7: a durable step updates two indexes less. The parent index served no query; the base index served
  // only list({ baseId }) at load, which now walks the seq index from the base's own position (a
  // checkpoint is stored after the snapshot it builds on). Every index a commit touches adds WAL.
  ({ schema, prefix }) => `
    DROP INDEX IF EXISTS "${schema}"."${prefix}checkpoints_base_idx";
    DROP INDEX IF EXISTS "${schema}"."${prefix}checkpoints_parent_idx";
  `,
  // 8: fencing (ADR 030). Every claim of a thread takes the next epoch here, under the thread's advisory
  // lock; a holder's writes go in only while the row still has its epoch (read FOR SHARE, so a takeover's
  // bump waits for a write in flight and a write after the bump is refused).
  ({ threadClaims }) => `
    CREATE TABLE ${threadClaims} (
      thread_id text PRIMARY KEY,
      epoch     bigint NOT NULL
    );
  `,
];

/**
 * The schema version {@link setupPostgresSchema} brings the tables to.
 *
 * @example
 * ```ts
 * console.log(`checkpoint tables at version ${POSTGRES_SCHEMA_VERSION}`);
 * ```
 */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Creates or upgrades the checkpoint, session and document-store tables: idempotent, in one transaction, serialized across processes
 * by an advisory lock on the schema name (so concurrent setups neither race nor fail).
 *
 * @throws {WeftError} code `CHECKPOINT` when the tables were written by a newer version of this package.
 * @example
 * ```ts
 * import pg from 'pg';
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * await setupPostgresSchema(pool, postgresTables('public', 'weft_')); // creates or upgrades the tables
 * ```
 */
export async function setupPostgresSchema(pool: Pool, tables: PostgresTables): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`weft-setup:${tables.schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${tables.schema}"`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${tables.migrations} (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ version: number }>(
      `SELECT coalesce(max(version), 0)::integer AS version FROM ${tables.migrations}`,
    );
    const current = rows[0]?.version ?? 0;
    if (current > MIGRATIONS.length) {
      throw new WeftError(
        'CHECKPOINT',
        `the Weft tables in schema "${tables.schema}" (prefix "${tables.prefix}") have schema version ${current}, newer than this @weft/store-postgres supports (${MIGRATIONS.length}); upgrade @weft/store-postgres`,
      );
    }
    for (let version = current; version < MIGRATIONS.length; version++) {
      await client.query(MIGRATIONS[version]!(tables));
      await client.query(`INSERT INTO ${tables.migrations} (version) VALUES ($1)`, [version + 1]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}
