import BetterSqlite3, { type Database } from 'better-sqlite3';
import { migrate } from './migrations.js';

/**
 * Where a SQLite store keeps its data: a file to open, or a database you already opened (which may be
 * shared by the checkpointer and the session service).
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * const inFile: SqliteStoreOptions = { filename: 'weft.db' };
 * const shared: SqliteStoreOptions = { database: new Database('app.db') }; // the app's own connection
 * const store = new SqliteStore(inFile);
 * const sessions = new SqliteSessionService(shared);
 * ```
 */
export type SqliteStoreOptions =
  | {
      /** Database file path, or `':memory:'` (the default). Created, with the schema, when missing. */
      readonly filename?: string;
    }
  | {
      /** An open better-sqlite3 database; the store migrates it but `close()` leaves it open. */
      readonly database: Database;
    };

/**
 * Opens (or adopts) a store's database: WAL journal, `synchronous = NORMAL`, a 5 s busy timeout, and
 * the package's schema migrated to the latest version. `owned` says whether `close()` should close it.
 *
 * @throws {WeftError} code `CHECKPOINT` when the file holds a schema newer than this package knows.
 * @example
 * ```ts
 * const { db, owned } = openDatabase({ filename: 'weft.db' });
 * ```
 */
export function openDatabase(options: SqliteStoreOptions): {
  readonly db: Database;
  readonly owned: boolean;
} {
  const owned = !('database' in options);
  const db = 'database' in options ? options.database : new BetterSqlite3(options.filename ?? ':memory:');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return { db, owned };
}
