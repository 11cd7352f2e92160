import { randomUUID } from 'node:crypto';
import { mkdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';

/**
 * A checkpointer's proof of life, readable by every process that shares its database file: an exclusive
 * SQLite lock (a POSIX record lock the kernel keeps per file, whatever PID namespace the process is in)
 * on a small owner file in `<database>-owners/`, taken on first use and held until `close` or the
 * process's death. Another process tells whether the owner lives by trying the same lock (see
 * {@link ownerAlive}); no pid, clock or heartbeat is involved.
 *
 * An in-memory database has no file to share: its owner is never looked up by another process.
 *
 * @example
 * ```ts
 * const lock = new OwnerLock('/data/weft.db', false);
 * lock.hold(); // /data/weft.db-owners/<lock.id> is now locked by this process
 * ownerAlive('/data/weft.db-owners', lock.id); // true, from any process on this machine
 * lock.close();
 * ```
 */
export class OwnerLock {
  /** This owner's id: the owner file's name, recorded in every claim row it takes. */
  readonly id = randomUUID();
  /** The folder of owner files (beside the database). */
  readonly directory: string;
  /** False for an in-memory database, whose rows no other process can read. */
  readonly shared: boolean;
  #lock: Database | undefined;

  constructor(databaseName: string, memory: boolean) {
    this.shared = !memory && databaseName !== '' && databaseName !== ':memory:';
    this.directory = `${databaseName}-owners`;
  }

  /** Takes the owner lock if not yet held (creating the owner file). */
  hold(): void {
    if (this.#lock !== undefined || !this.shared) return;
    mkdirSync(this.directory, { recursive: true });
    const lock = new BetterSqlite3(join(this.directory, this.id));
    lock.exec('BEGIN EXCLUSIVE');
    this.#lock = lock;
  }

  /** Gives the lock up and removes the owner file. */
  close(): void {
    const lock = this.#lock;
    if (lock === undefined) return;
    this.#lock = undefined;
    lock.close();
    removeOwnerFile(this.directory, this.id);
  }
}

/**
 * True while the owner `id` holds its lock (its process lives, in any PID namespace of this machine).
 * A dead owner's file is removed on the way.
 *
 * @example
 * ```ts
 * ownerAlive('/data/weft.db-owners', 'a0c5…'); // false once that checkpointer's process was killed
 * ```
 */
export function ownerAlive(directory: string, id: string): boolean {
  let probe: Database;
  try {
    probe = new BetterSqlite3(join(directory, id), { fileMustExist: true, timeout: 0 });
  } catch {
    return false; // no owner file: closed, or removed by whoever found it dead
  }
  try {
    probe.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    probe.close();
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return true;
    throw error;
  }
  probe.exec('ROLLBACK');
  probe.close();
  removeOwnerFile(directory, id);
  return false;
}

function removeOwnerFile(directory: string, id: string): void {
  try {
    unlinkSync(join(directory, id));
  } catch {
    // Already gone (another process found the owner dead first).
  }
}
