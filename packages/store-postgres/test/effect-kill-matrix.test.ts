import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeEffectKillMatrix } from '@weft/compose/testing';
import { processSuiteOn } from './shared-postgres.js';

/** SIGKILL at every point around an effect on one PostgreSQL schema (the shared matrix, ADR 035). */
const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));

describeEffectKillMatrix({
  name: 'PostgresCheckpointer',
  childScript: join(packageDir, 'test', 'crash', 'effect-kill-child.ts'),
  cwd: packageDir,
  ...processSuiteOn('effect_kill'),
});
