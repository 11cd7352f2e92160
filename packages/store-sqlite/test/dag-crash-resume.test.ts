import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeDagCrashResume } from '@weft/compose/testing';
import { SqliteCheckpointer } from '../src/sqlite-checkpointer.js';

/** Kill -9 in the middle of a durable DAG-mode run on a SQLite file (the shared suite, ADR 023). */
const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));

describeDagCrashResume({
  name: 'SqliteCheckpointer',
  childScript: join(packageDir, 'test', 'crash', 'dag-crash-child.ts'),
  cwd: packageDir,
  fixture: async () => {
    const directory = mkdtempSync(join(tmpdir(), 'weft-dag-crash-db-'));
    const filename = join(directory, 'weft.db');
    return {
      open: () => new SqliteCheckpointer({ filename }),
      childArgs: [filename],
      cleanup: async () => rmSync(directory, { recursive: true, force: true }),
    };
  },
});
