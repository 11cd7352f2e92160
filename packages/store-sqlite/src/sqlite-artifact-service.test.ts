import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreArtifactService } from '@weft/adk';
import { describeArtifactServiceConformance } from '@weft/adk/testing/conformance';
import { SqliteStore } from './sqlite-store.js';

describeArtifactServiceConformance('StoreArtifactService on SqliteStore', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'weft-sqlite-artifacts-'));
  const filename = join(directory, 'weft.db');
  const stores = [new SqliteStore({ filename })];
  return {
    service: new StoreArtifactService({ store: stores[0] as SqliteStore }),
    // a second connection to the same file, as another process opens it
    otherWriter: async () => {
      const other = new SqliteStore({ filename });
      stores.push(other);
      return new StoreArtifactService({ store: other });
    },
    cleanup: async () => {
      for (const store of stores) await store.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});
