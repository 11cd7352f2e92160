import pg from 'pg';
import { afterAll, describe, it } from 'vitest';

/** The shared test server, as a suite body sees it. */
export interface SharedPostgres {
  /** One pool for the suite (ended after it). */
  readonly pool: pg.Pool;
  /** A fresh schema name, unique to this process and call (dropped after the suite). */
  schema(label: string): string;
  /** Drops a schema now (a fixture's cleanup). */
  drop(schema: string): Promise<void>;
}

const runId = `${process.pid.toString(36)}_${Date.now().toString(36)}`;
let schemaCount = 0;

/**
 * Runs `body` (which registers conformance suites) against the PostgreSQL in `WEFT_PG_URL`, with one pool
 * and throwaway schemas; without a server it registers one visibly skipped test that says what is needed.
 */
export function withSharedPostgres(name: string, body: (server: SharedPostgres) => void): void {
  const url = process.env.WEFT_PG_URL;
  if (url === undefined || url === '') {
    describe(name, () => {
      // Skipped only when no PostgreSQL is configured (CI sets WEFT_PG_URL): the suite needs a live server.
      it.skip('needs WEFT_PG_URL (e.g. postgres://postgres@127.0.0.1:5432/test)', () => undefined);
    });
    return;
  }
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const created: string[] = [];
  const drop = async (schema: string): Promise<void> => {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  };
  afterAll(async () => {
    for (const schema of created) await drop(schema);
    await pool.end();
  });
  body({
    pool,
    schema: (label) => {
      schemaCount += 1;
      const schema = `weft_${label}_${runId}_${schemaCount}`;
      created.push(schema);
      return schema;
    },
    drop,
  });
}
