import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeDagCrashResume } from '@weft/compose/testing';
import { processSuiteOn } from './shared-postgres.js';

/** Kill -9 in the middle of a durable DAG-mode run on one PostgreSQL schema (the shared suite, ADR 023). */
const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));

describeDagCrashResume({
  name: 'PostgresCheckpointer',
  childScript: join(packageDir, 'test', 'crash', 'dag-crash-child.ts'),
  cwd: packageDir,
  ...processSuiteOn('dag_crash'),
});
