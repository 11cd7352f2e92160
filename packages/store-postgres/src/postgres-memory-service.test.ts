import {
  describeMemoryServiceConformance,
  describeRunnerServicesConformance,
} from '@weft/adk/testing/conformance';
import { withSharedPostgres } from '../test/shared-postgres.js';
import { PostgresStore } from './postgres-store.js';

withSharedPostgres('PostgresStore memory service', ({ pool, schema: fresh, drop }) => {
  describeMemoryServiceConformance('PostgresStore', async (options) => {
    const schema = fresh('memory');
    const store = new PostgresStore({ pool, schema, ...options });
    await store.setup();
    return { store, cleanup: () => drop(schema) };
  });
  describeRunnerServicesConformance('PostgresStore', async (options) => {
    const schema = fresh('runner');
    const store = new PostgresStore({ pool, schema, ...options });
    await store.setup();
    return { store, cleanup: () => drop(schema) };
  });
});
