/**
 * `@weft/store-sqlite` — SQLite storage for Weft (checkpoints, sessions, the node cache and the long-term
 * document store), on better-sqlite3.
 *
 * For people who run graphs and agents on one machine: the store classes and their options. A store
 * creates or upgrades the file's schema when it opens it; the migrations stay inside.
 *
 * @packageDocumentation
 */

export { SQLITE_SCHEMA_VERSION } from './migrations.js';
export type { SqliteStoreOptions } from './open-database.js';
export { SqliteCache, type SqliteCacheOptions } from './sqlite-cache.js';
export { SqliteCheckpointer, type SqliteCheckpointerOptions } from './sqlite-checkpointer.js';
export { SqliteSessionService, type SqliteSessionServiceOptions } from './sqlite-session-service.js';
export { SqliteStore, type SqliteStoreDocumentsOptions } from './sqlite-store.js';
