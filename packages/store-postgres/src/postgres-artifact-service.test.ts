import { StoreArtifactService } from '@weft/adk';
import { describeArtifactServiceConformance } from '@weft/adk/testing/conformance';
import pg from 'pg';
import { afterAll, describe, it } from 'vitest';
import { PostgresStore } from './postgres-store.js';

const url = process.env.WEFT_PG_URL;
const runId = `${process.pid.toString(36)}_${Date.now().toString(36)}`;
let schemaCount = 0;

if (url === undefined || url === '') {
  describe('PostgresStore artifact service', () => {
    // Skipped only when no PostgreSQL is configured (CI sets WEFT_PG_URL): the suite needs a live server.
    it.skip('needs WEFT_PG_URL (e.g. postgres://postgres@127.0.0.1:5432/test)', () => undefined);
  });
} else {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  afterAll(() => pool.end());
  describeArtifactServiceConformance('StoreArtifactService on PostgresStore', async () => {
    schemaCount += 1;
    const schema = `weft_artifacts_${runId}_${schemaCount}`;
    const store = new PostgresStore({ pool, schema });
    await store.setup();
    return {
      service: new StoreArtifactService({ store }),
      cleanup: async () => {
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      },
    };
  });
}
