import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StoreArtifactService } from '@weft/adk';
import { describeArtifactSavesAcrossProcesses } from '@weft/adk/testing/conformance';
import { describe } from 'vitest';
import { SqliteStore } from '../src/sqlite-store.js';

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));

describe('artifacts saved by two processes on one SQLite file', () => {
  describeArtifactSavesAcrossProcesses({
    name: 'StoreArtifactService on SqliteStore',
    childScript: join(packageDir, 'test', 'artifacts', 'artifact-writer.ts'),
    cwd: packageDir,
    fixture: async () => {
      const directory = mkdtempSync(join(tmpdir(), 'weft-artifact-writers-'));
      const filename = join(directory, 'weft.db');
      // the schema exists before the writers race to open the file
      const store = new SqliteStore({ filename });
      return {
        childArgs: [filename],
        open: async () => new StoreArtifactService({ store }),
        cleanup: async () => {
          await store.close();
          rmSync(directory, { recursive: true, force: true });
        },
      };
    },
  });
});
