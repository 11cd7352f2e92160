// @weft/store-postgres — PostgreSQL storage for Weft (checkpoints and sessions), on pg.

export { PostgresCheckpointer, type PostgresCheckpointerOptions } from './postgres-checkpointer.js';
export {
  POSTGRES_SCHEMA_VERSION,
  type PostgresTables,
  postgresTables,
  setupPostgresSchema,
} from './postgres-schema.js';
export { PostgresSessionService, type PostgresSessionServiceOptions } from './postgres-session-service.js';
