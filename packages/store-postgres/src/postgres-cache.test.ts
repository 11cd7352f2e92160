import { describeNodeCacheConformance } from '@weft/compose/testing';
import pg from 'pg';
import { afterAll, describe, it } from 'vitest';
import { PostgresCache } from './postgres-cache.js';

const url = process.env.WEFT_PG_URL;
const runId = `${process.pid.toString(36)}_${Date.now().toString(36)}`;
let schemaCount = 0;

if (url === undefined || url === '') {
  describe('PostgresCache', () => {
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
  describeNodeCacheConformance('PostgresCache', async (now) => {
    schemaCount += 1;
    const schema = `weft_cache_${runId}_${schemaCount}`;
    created.push(schema);
    const cache = new PostgresCache({ pool, schema, now });
    await cache.setup();
    return { cache };
  });
}
