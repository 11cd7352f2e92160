import { StoreArtifactService } from '@weft/adk';
import { describeArtifactServiceConformance } from '@weft/adk/testing/conformance';
import { withSharedPostgres } from '../test/shared-postgres.js';
import { PostgresStore } from './postgres-store.js';

withSharedPostgres('PostgresStore artifact service', ({ pool, schema: fresh, drop }) => {
  describeArtifactServiceConformance('StoreArtifactService on PostgresStore', async () => {
    const schema = fresh('artifacts');
    const store = new PostgresStore({ pool, schema });
    await store.setup();
    const others: PostgresStore[] = [];
    return {
      service: new StoreArtifactService({ store }),
      // another pool (other connections), as another process opens the same schema
      otherWriter: async () => {
        const other = new PostgresStore({ connectionString: process.env.WEFT_PG_URL ?? '', schema });
        others.push(other);
        return new StoreArtifactService({ store: other });
      },
      cleanup: async () => {
        for (const other of others) await other.close();
        await drop(schema);
      },
    };
  });
});
