import { WeftError } from '@weft/compose';
import type { CheckpointRecord } from '@weft/compose/store';
import { describeCheckpointerConformance } from '@weft/compose/testing';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PostgresCheckpointer } from './postgres-checkpointer.js';
import { POSTGRES_SCHEMA_VERSION } from './postgres-schema.js';

const url = process.env.WEFT_PG_URL;
if (url === undefined || url === '') {
  console.warn(
    'WEFT_PG_URL is not set: skipping the PostgreSQL checkpointer tests (set WEFT_PG_URL, e.g. postgres://postgres@127.0.0.1:5432/test)',
  );
}

// Every schema this run creates is unique to the run (pid + time + counter) and dropped after its test,
// so parallel runs against one database never collide.
const runId = `${process.pid.toString(36)}_${Date.now().toString(36)}`;
let schemaCount = 0;

function freshSchema(): string {
  schemaCount += 1;
  return `weft_test_${runId}_${schemaCount}`;
}

async function dropSchema(pool: pg.Pool, schema: string): Promise<void> {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

/** The indexes the session tables (created by the same setup) add, without the table prefix. */
const SESSION_INDEXES = [
  'app_state_pkey',
  'session_events_id_key',
  'session_events_pkey',
  'session_events_seq_idx',
  'session_state_pkey',
  'sessions_pkey',
  'sessions_recent_idx',
  'sessions_status_idx',
  'store_expiry_idx',
  'store_pkey',
  'store_recent_idx',
  'user_state_pkey',
];

function record(id: string, overrides: Partial<CheckpointRecord> = {}): CheckpointRecord {
  return {
    threadId: 't1',
    ns: '',
    id,
    seq: Number(id),
    parentId: null,
    baseId: id,
    step: 0,
    source: 'loop',
    createdAt: '2024-01-01T00:00:00.000Z',
    metadata: {},
    payload: `payload-${id}`,
    ...overrides,
  };
}

describe.skipIf(url === undefined || url === '')('PostgresCheckpointer', () => {
  const connectionString = url ?? '';

  describeCheckpointerConformance('PostgresCheckpointer', async () => {
    const pool = new pg.Pool({ connectionString, max: 5 });
    const schema = freshSchema();
    const checkpointer = new PostgresCheckpointer({ pool, schema });
    await checkpointer.setup();
    return {
      checkpointer,
      cleanup: async () => {
        await dropSchema(pool, schema);
        await pool.end();
      },
    };
  });

  describe('setup and options', () => {
    let pool: pg.Pool;
    let schema: string;

    beforeEach(() => {
      pool = new pg.Pool({ connectionString, max: 8 });
      schema = freshSchema();
    });

    afterEach(async () => {
      await dropSchema(pool, schema);
      await pool.end();
    });

    it('sets up idempotently, also when many setups run at once', async () => {
      const stores = Array.from({ length: 6 }, () => new PostgresCheckpointer({ pool, schema }));
      await Promise.all(stores.map((store) => store.setup()));
      await stores[0]!.setup();
      const { rows } = await pool.query(`SELECT version FROM "${schema}".weft_migrations ORDER BY version`);
      expect(rows.map((row: { version: number }) => row.version)).toEqual(
        Array.from({ length: POSTGRES_SCHEMA_VERSION }, (_, index) => index + 1),
      );
      await stores[1]!.put(record('0001'));
      expect((await stores[2]!.get('t1'))?.checkpoint).toEqual(record('0001'));
    });

    it('creates id columns with the C collation and the lookup indexes', async () => {
      await new PostgresCheckpointer({ pool, schema, tablePrefix: 'app_' }).setup();
      const columns = await pool.query(
        `SELECT table_name, column_name, collation_name FROM information_schema.columns
         WHERE table_schema = $1 AND column_name IN ('id', 'base_id', 'parent_id', 'checkpoint_id')
         ORDER BY table_name, column_name`,
        [schema],
      );
      expect(columns.rows).toEqual([
        { table_name: 'app_checkpoint_writes', column_name: 'checkpoint_id', collation_name: 'C' },
        { table_name: 'app_checkpoints', column_name: 'base_id', collation_name: 'C' },
        { table_name: 'app_checkpoints', column_name: 'id', collation_name: 'C' },
        { table_name: 'app_checkpoints', column_name: 'parent_id', collation_name: 'C' },
      ]);
      const indexes = await pool.query(
        'SELECT indexname FROM pg_indexes WHERE schemaname = $1 ORDER BY indexname',
        [schema],
      );
      expect(indexes.rows.map((row: { indexname: string }) => row.indexname).sort()).toEqual(
        [
          'app_checkpoint_writes_pkey',
          'app_checkpoints_pkey',
          'app_checkpoints_seq_idx',
          'app_migrations_pkey',
          'app_thread_claims_pkey',
          ...SESSION_INDEXES.map((name) => `app_${name}`),
        ].sort(),
      );
    });

    it('keeps stores with different table prefixes apart in one schema', async () => {
      const first = new PostgresCheckpointer({ pool, schema, tablePrefix: 'one_' });
      const second = new PostgresCheckpointer({ pool, schema, tablePrefix: 'two_' });
      await Promise.all([first.setup(), second.setup()]);
      await first.put(record('0001', { payload: 'one' }));
      await second.put(record('0001', { payload: 'two' }));
      expect((await first.get('t1'))?.checkpoint.payload).toBe('one');
      expect((await second.get('t1'))?.checkpoint.payload).toBe('two');
      await first.deleteThread('t1');
      expect(await first.get('t1')).toBeUndefined();
      expect((await second.get('t1'))?.checkpoint.payload).toBe('two');
    });

    it('owns and ends a pool it created from a connection string, but not one passed in', async () => {
      const owned = new PostgresCheckpointer({ connectionString, schema });
      await owned.setup();
      await owned.put(record('0001'));
      await owned.close();
      await expect(owned.get('t1')).rejects.toThrow();
      const borrowed = new PostgresCheckpointer({ pool, schema });
      await borrowed.close();
      expect((await borrowed.get('t1'))?.checkpoint).toEqual(record('0001'));
    });

    it('says to call setup() when the tables are missing, and reports duplicates as CHECKPOINT', async () => {
      const store = new PostgresCheckpointer({ pool, schema });
      await expect(store.get('t1')).rejects.toThrow(/call await checkpointer.setup\(\) once before use/);
      await store.setup();
      await store.put(record('0001'));
      const error = await store.put(record('0001')).catch((caught: unknown) => caught);
      expect(WeftError.isInstance(error) && error.code).toBe('CHECKPOINT');
    });

    it('rejects schema names and prefixes that are not plain identifiers', () => {
      expect(() => new PostgresCheckpointer({ pool, schema: 'x"; DROP TABLE y; --' })).toThrow(
        /plain SQL identifier/,
      );
      expect(() => new PostgresCheckpointer({ pool, tablePrefix: 'bad-prefix' })).toThrow(
        /plain SQL identifier/,
      );
    });
  });
});
