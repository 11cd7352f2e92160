import { describeDurabilityMatrix } from '@weft/compose/testing';
import pg from 'pg';
import { describe } from 'vitest';
import { PostgresCheckpointer } from '../src/postgres-checkpointer.js';

const url = process.env.WEFT_PG_URL;
if (url === undefined || url === '') {
  console.warn(
    'WEFT_PG_URL is not set: skipping the PostgreSQL pause/resume matrix (set WEFT_PG_URL, e.g. postgres://postgres@127.0.0.1:5432/test)',
  );
}

// One schema per test, unique to this run and dropped after the test.
const runId = `${process.pid.toString(36)}_${Date.now().toString(36)}`;
let schemaCount = 0;

describe.skipIf(url === undefined || url === '')('PostgresCheckpointer', () => {
  describeDurabilityMatrix('PostgresCheckpointer', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    const schema = `weft_matrix_${runId}_${++schemaCount}`;
    const checkpointer = new PostgresCheckpointer({ pool, schema });
    await checkpointer.setup();
    return {
      checkpointer,
      cleanup: async () => {
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await pool.end();
      },
    };
  });
});
