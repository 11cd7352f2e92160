import { StoreArtifactService } from '@weft/adk';
import { describeArtifactServiceConformance } from '@weft/adk/testing/conformance';
import { withSharedPostgres } from '../test/shared-postgres.js';
import { PostgresStore } from './postgres-store.js';

withSharedPostgres('PostgresStore artifact service', ({ pool, schema: fresh, drop }) => {
  describeArtifactServiceConformance('StoreArtifactService on PostgresStore', async () => {
    const schema = fresh('artifacts');
    const store = new PostgresStore({ pool, schema });
    await store.setup();
    return { service: new StoreArtifactService({ store }), cleanup: () => drop(schema) };
  });
});
