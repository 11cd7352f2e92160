// @weft/store-sqlite — SQLite storage for Weft (checkpoints and sessions), on better-sqlite3.

export { migrate, SQLITE_SCHEMA_VERSION } from './migrations.js';
export type { SqliteStoreOptions } from './open-database.js';
export { SqliteCheckpointer, type SqliteCheckpointerOptions } from './sqlite-checkpointer.js';
export { SqliteSessionService, type SqliteSessionServiceOptions } from './sqlite-session-service.js';
