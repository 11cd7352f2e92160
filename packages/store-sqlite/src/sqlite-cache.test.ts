import { describeNodeCacheConformance } from '@weft/compose/testing';
import { SqliteCache } from './sqlite-cache.js';

describeNodeCacheConformance('SqliteCache', async (now) => {
  const cache = new SqliteCache({ now });
  return { cache, close: () => cache.close() };
});
