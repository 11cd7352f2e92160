import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeEffectKillMatrix } from '@weft/compose/testing';
import { SqliteCheckpointer } from '../src/sqlite-checkpointer.js';

/** SIGKILL at every point around an effect on a SQLite file (the shared matrix, ADR 035). */
const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));

describeEffectKillMatrix({
  name: 'SqliteCheckpointer',
  childScript: join(packageDir, 'test', 'crash', 'effect-kill-child.ts'),
  cwd: packageDir,
  fixture: async () => {
    const directory = mkdtempSync(join(tmpdir(), 'weft-effect-kill-db-'));
    const filename = join(directory, 'weft.db');
    return {
      open: () => new SqliteCheckpointer({ filename }),
      childArgs: [filename],
      cleanup: async () => rmSync(directory, { recursive: true, force: true }),
    };
  },
});
