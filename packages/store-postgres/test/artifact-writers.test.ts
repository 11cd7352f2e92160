import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StoreArtifactService } from '@weft/adk';
import { describeArtifactSavesAcrossProcesses } from '@weft/adk/testing/conformance';
import { PostgresStore } from '../src/postgres-store.js';
import { withSharedPostgres } from './shared-postgres.js';

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));

withSharedPostgres('artifacts saved by two processes on one PostgreSQL schema', ({ pool, schema: fresh }) => {
  describeArtifactSavesAcrossProcesses({
    name: 'StoreArtifactService on PostgresStore',
    childScript: join(packageDir, 'test', 'artifacts', 'artifact-writer.ts'),
    cwd: packageDir,
    fixture: async () => {
      const schema = fresh('artifact_writers');
      const store = new PostgresStore({ pool, schema });
      await store.setup();
      return {
        childArgs: [process.env.WEFT_PG_URL ?? '', schema],
        open: async () => new StoreArtifactService({ store }),
      };
    },
  });
});
