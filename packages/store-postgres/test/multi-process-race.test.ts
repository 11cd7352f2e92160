import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeMultiProcessRace } from '@weft/compose/testing';
import { processSuiteOn } from './shared-postgres.js';

/** One writer per thread across processes, on one PostgreSQL schema (the shared suite from `@weft/compose/testing`). */
const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));

describeMultiProcessRace({
  name: 'PostgresCheckpointer',
  childScript: join(packageDir, 'test', 'race', 'race-child.ts'),
  cwd: packageDir,
  ...processSuiteOn('race'),
});
