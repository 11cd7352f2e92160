import { describeMigrationConformance, describeRetentionConformance } from '@weft/compose/testing';
import pg from 'pg';
import { describe, it } from 'vitest';
import { PostgresCheckpointer } from './postgres-checkpointer.js';

const url = process.env.WEFT_PG_URL;
const runId = `${process.pid.toString(36)}_${Date.now().toString(36)}`;
let schemaCount = 0;

if (url === undefined || url === '') {
  console.warn('WEFT_PG_URL is not set: skipping the PostgreSQL retention tests');
  // Skipped only without a PostgreSQL server (CI sets WEFT_PG_URL): shown as skipped, never silently passed.
  describe.skip('PostgresCheckpointer (retention conformance): WEFT_PG_URL is not set', () => {
    it('needs PostgreSQL', () => undefined);
  });
} else {
  const fixture = async () => {
    const pool = new pg.Pool({ connectionString: url, max: 5 });
    schemaCount += 1;
    const schema = `weft_retention_${runId}_${schemaCount}`;
    const checkpointer = new PostgresCheckpointer({ pool, schema });
    await checkpointer.setup();
    return {
      checkpointer,
      cleanup: async () => {
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await pool.end();
      },
    };
  };
  describeRetentionConformance('PostgresCheckpointer', fixture);
  describeMigrationConformance('PostgresCheckpointer', fixture);
}
