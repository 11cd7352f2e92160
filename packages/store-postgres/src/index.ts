/**
 * `@weft/store-postgres` — PostgreSQL storage for Weft (checkpoints, sessions, the node cache and the
 * long-term document store), on pg.
 *
 * For people who run graphs and agents on PostgreSQL: the store classes and their options. Each class
 * creates or upgrades its tables with its own `setup()` (the migrations stay inside); `postgresTables`
 * names the qualified tables of a schema and prefix, for your own grants, backups or queries.
 *
 * @packageDocumentation
 */

export type { VectorSearchMode } from './pgvector.js';
export { PostgresCache, type PostgresCacheOptions } from './postgres-cache.js';
export { PostgresCheckpointer, type PostgresCheckpointerOptions } from './postgres-checkpointer.js';
export type { PostgresConnectionOptions } from './postgres-connection.js';
export { POSTGRES_SCHEMA_VERSION, type PostgresTables, postgresTables } from './postgres-schema.js';
export { PostgresSessionService, type PostgresSessionServiceOptions } from './postgres-session-service.js';
export { PostgresStore, type PostgresStoreOptions } from './postgres-store.js';
