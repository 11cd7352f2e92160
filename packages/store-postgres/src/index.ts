// @weft/store-postgres — PostgreSQL storage for Weft (checkpoints, sessions and the long-term document store), on pg.

export { PostgresCache, type PostgresCacheOptions } from './postgres-cache.js';
export { PostgresCheckpointer, type PostgresCheckpointerOptions } from './postgres-checkpointer.js';
export {
  POSTGRES_SCHEMA_VERSION,
  type PostgresTables,
  postgresTables,
  setupPostgresSchema,
} from './postgres-schema.js';
export { PostgresSessionService, type PostgresSessionServiceOptions } from './postgres-session-service.js';
export { PostgresStore, type PostgresStoreOptions } from './postgres-store.js';
