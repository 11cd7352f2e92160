import { describeStoreConformance } from '@weft/compose/testing';
import { withSharedPostgres } from '../test/shared-postgres.js';
import { PostgresStore } from './postgres-store.js';

withSharedPostgres('PostgresStore', ({ pool, schema: fresh, drop }) => {
  describeStoreConformance('PostgresStore', async (options) => {
    const schema = fresh('store');
    const store = new PostgresStore({ pool, schema, ...options });
    await store.setup();
    return { store, cleanup: () => drop(schema) };
  });
});
