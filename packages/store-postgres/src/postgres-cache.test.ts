import { describeNodeCacheConformance } from '@weft/compose/testing';
import { withSharedPostgres } from '../test/shared-postgres.js';
import { PostgresCache } from './postgres-cache.js';

withSharedPostgres('PostgresCache', ({ pool, schema: fresh }) => {
  describeNodeCacheConformance('PostgresCache', async (now) => {
    const cache = new PostgresCache({ pool, schema: fresh('cache'), now });
    await cache.setup();
    return { cache };
  });
});
