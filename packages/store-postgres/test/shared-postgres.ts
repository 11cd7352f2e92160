import pg from 'pg';
import { afterAll, describe, it } from 'vitest';
import { PostgresCheckpointer } from '../src/postgres-checkpointer.js';

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

/**
 * The options a process suite of `@weft/compose/testing` (`describeMultiProcessRace`,
 * `describeDagCrashResume`) takes for PostgreSQL: skipped visibly without `WEFT_PG_URL`, else each fixture
 * gets a fresh schema `weft_<label>_…` with the checkpointer's tables, hands the child processes the URL and
 * schema, and drops the schema afterwards.
 */
export function processSuiteOn(label: string) {
  const url = process.env.WEFT_PG_URL ?? '';
  if (url === '') console.warn(`WEFT_PG_URL is not set: skipping the PostgreSQL ${label} tests`);
  return {
    skip: url === '',
    fixture: async () => {
      const schema = `weft_${label}_${runId}_${++schemaCount}`;
      const pool = new pg.Pool({ connectionString: url, max: 4 });
      await new PostgresCheckpointer({ pool, schema }).setup();
      return {
        open: () => new PostgresCheckpointer({ pool, schema }),
        childArgs: [url, schema],
        cleanup: async () => {
          await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          await pool.end();
        },
      };
    },
  };
}
