import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeMultiProcessRace } from '@weft/compose/testing';
import { SqliteCheckpointer } from '../src/sqlite-checkpointer.js';

/** One writer per thread across processes, on one SQLite file (the shared suite from `@weft/compose/testing`). */
const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));

describeMultiProcessRace({
  name: 'SqliteCheckpointer',
  childScript: join(packageDir, 'test', 'race', 'race-child.ts'),
  cwd: packageDir,
  fixture: async () => {
    const directory = mkdtempSync(join(tmpdir(), 'weft-race-db-'));
    const filename = join(directory, 'weft.db');
    return {
      open: () => new SqliteCheckpointer({ filename }),
      childArgs: [filename],
      cleanup: async () => rmSync(directory, { recursive: true, force: true }),
    };
  },
});
