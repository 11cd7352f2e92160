import { describeMemoryServiceConformance } from '@weft/adk/testing/conformance';
import pg from 'pg';
import { afterAll, describe, it } from 'vitest';
import { PostgresStore } from './postgres-store.js';

const url = process.env.WEFT_PG_URL;
const runId = `${process.pid.toString(36)}_${Date.now().toString(36)}`;
let schemaCount = 0;

if (url === undefined || url === '') {
  describe('PostgresStore memory service', () => {
    // Skipped only when no PostgreSQL is configured (CI sets WEFT_PG_URL): the suite needs a live server.
    it.skip('needs WEFT_PG_URL (e.g. postgres://postgres@127.0.0.1:5432/test)', () => undefined);
  });
} else {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const created: string[] = [];
  afterAll(async () => {
    for (const schema of created) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });
  describeMemoryServiceConformance('PostgresStore', async (options) => {
    schemaCount += 1;
    const schema = `weft_memory_${runId}_${schemaCount}`;
    created.push(schema);
    const store = new PostgresStore({ pool, schema, ...options });
    await store.setup();
    return {
      store,
      cleanup: async () => {
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      },
    };
  });
}
