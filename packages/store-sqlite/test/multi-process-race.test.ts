import { spawnSync } from 'node:child_process';
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

/**
 * Containers sharing one volume: every child in its own PID namespace (`unshare`), where each sees only
 * its own processes and both racers are pid 1. A claim's owner is judged by its lock on the shared
 * file, so the other container's live run still holds its thread (issue #52: a pid check saw it dead).
 */
const unshare = ['unshare', '--pid', '--fork', '--mount-proc'];
const canUnshare = spawnSync(unshare[0]!, [...unshare.slice(1), 'true']).status === 0;

describeMultiProcessRace({
  name: 'SqliteCheckpointer, each process in its own PID namespace',
  childScript: join(packageDir, 'test', 'race', 'race-child.ts'),
  cwd: packageDir,
  wrap: unshare,
  skip: !canUnshare,
  fixture: async () => {
    const directory = mkdtempSync(join(tmpdir(), 'weft-race-ns-'));
    const filename = join(directory, 'weft.db');
    return {
      open: () => new SqliteCheckpointer({ filename }),
      childArgs: [filename],
      cleanup: async () => rmSync(directory, { recursive: true, force: true }),
    };
  },
});
