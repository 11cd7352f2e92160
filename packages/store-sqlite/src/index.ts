// @weft/store-sqlite — SQLite storage for Weft (checkpoints, sessions and the long-term document store), on better-sqlite3.

export { migrate, SQLITE_SCHEMA_VERSION } from './migrations.js';
export type { SqliteStoreOptions } from './open-database.js';
export { SqliteCache, type SqliteCacheOptions } from './sqlite-cache.js';
export { SqliteCheckpointer, type SqliteCheckpointerOptions } from './sqlite-checkpointer.js';
export { SqliteSessionService, type SqliteSessionServiceOptions } from './sqlite-session-service.js';
export { SqliteStore, type SqliteStoreDocumentsOptions } from './sqlite-store.js';
