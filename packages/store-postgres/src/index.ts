// @weft/store-postgres — PostgreSQL storage for Weft, on pg.

export { PostgresCheckpointer, type PostgresCheckpointerOptions } from './postgres-checkpointer.js';
export {
  POSTGRES_SCHEMA_VERSION,
  type PostgresTables,
  postgresTables,
  setupPostgresSchema,
} from './postgres-schema.js';
