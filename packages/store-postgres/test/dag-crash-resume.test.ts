import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeDagCrashResume } from '@weft/compose/testing';
import pg from 'pg';
import { PostgresCheckpointer } from '../src/postgres-checkpointer.js';

/** Kill -9 in the middle of a durable DAG-mode run on one PostgreSQL schema (the shared suite, ADR 023). */
const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const url = process.env.WEFT_PG_URL ?? '';
if (url === '') console.warn('WEFT_PG_URL is not set: skipping the PostgreSQL DAG crash test');
const runId = `${process.pid.toString(36)}_${Date.now().toString(36)}`;
let schemaCount = 0;

describeDagCrashResume({
  name: 'PostgresCheckpointer',
  skip: url === '',
  childScript: join(packageDir, 'test', 'crash', 'dag-crash-child.ts'),
  cwd: packageDir,
  fixture: async () => {
    const schema = `weft_dag_crash_${runId}_${++schemaCount}`;
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
});
