import { CheckpointCorruptError } from '@weft/compose';
import {
  CHECKPOINT_COLUMNS,
  type CheckpointLink,
  type CheckpointRecord,
  type CheckpointRow,
  checkpointExistsError,
  checkpointFromRow,
  checkpointRowValues,
  type DeleteOutcome,
  type GetCheckpointOptions,
  type ListCheckpointsOptions,
  type ListThreadsOptions,
  type MaintainableCheckpointer,
  metadataMatches,
  type Rebase,
  type RebaseOutcome,
  type StoredCheckpoint,
  seqConflictError,
  TASK_WRITES_COLUMNS,
  type TaskWritesRecord,
  type TaskWritesRow,
  type ThreadClaim,
  type ThreadSummary,
  taskWritesFromRow,
  taskWritesRowValues,
} from '@weft/compose/store';
import type { Database, Statement } from 'better-sqlite3';
import { openDatabase, type SqliteStoreOptions } from './open-database.js';
import { SqliteMaintenance } from './sqlite-maintenance.js';
import { SqliteThreadClaims } from './sqlite-thread-claims.js';

/**
 * Options of {@link SqliteCheckpointer}: a file to open, or a database you already opened.
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * const inFile: SqliteCheckpointerOptions = { filename: 'weft.db' };
 * const shared: SqliteCheckpointerOptions = { database: new Database('app.db') }; // not closed by close()
 * const checkpointer = new SqliteCheckpointer(inFile);
 * ```
 */
export type SqliteCheckpointerOptions = SqliteStoreOptions;

const COLUMNS = CHECKPOINT_COLUMNS;

/**
 * A checkpoint store in one SQLite file (or in memory) on better-sqlite3: WAL journal,
 * `synchronous=NORMAL`, prepared statements, and a schema created and upgraded on open
 * (`PRAGMA user_version`). Calls run synchronously inside the returned promises. Checkpoints are
 * ordered by their `seq` (unique per thread and namespace, so a racing writer's `put` conflicts), and a
 * thread is claimed by one process at a time (a claim row; a dead process's claim is taken over).
 *
 * @example
 * ```ts
 * const graph = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END);
 * import { SqliteCheckpointer } from '@weft/store-sqlite';
 *
 * const checkpointer = new SqliteCheckpointer({ filename: 'weft.db' });
 * const app = graph.compile({ checkpointer });
 * await app.invoke({ count: 1 }, { threadId: 'thread-1' });
 * await checkpointer.close();
 * ```
 */
export class SqliteCheckpointer implements MaintainableCheckpointer {
  readonly #db: Database;
  readonly #ownsDatabase: boolean;
  readonly #insert: Statement<unknown[]>;
  readonly #upsertWrites: Statement<unknown[]>;
  readonly #latest: Statement<unknown[], CheckpointRow>;
  readonly #byId: Statement<unknown[], CheckpointRow>;
  readonly #writes: Statement<unknown[], TaskWritesRow>;
  readonly #lists = new Map<number, Statement<unknown[], CheckpointRow>>();
  readonly #deleteThread: (threadId: string) => void;
  readonly #upsertMany: (records: readonly TaskWritesRecord[]) => void;
  readonly #claims: SqliteThreadClaims;
  readonly #maintenance: SqliteMaintenance;
  readonly #fencedInsert: (record: CheckpointRecord) => void;
  readonly #fencedUpsert: (records: readonly TaskWritesRecord[]) => void;

  /** @throws {WeftError} code `CHECKPOINT` when the file holds a schema newer than this package knows. */
  constructor(options: SqliteCheckpointerOptions = {}) {
    const { db, owned } = openDatabase(options);
    this.#db = db;
    this.#ownsDatabase = owned;
    this.#insert = db.prepare(
      `INSERT INTO weft_checkpoints (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#upsertWrites = db.prepare(
      `INSERT INTO weft_checkpoint_writes (${TASK_WRITES_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (thread_id, ns, checkpoint_id, task_id)
       DO UPDATE SET payload = excluded.payload, checksum = excluded.checksum`,
    );
    this.#latest = db.prepare(
      `SELECT ${COLUMNS} FROM weft_checkpoints WHERE thread_id = ? AND ns = ? ORDER BY seq DESC LIMIT 1`,
    );
    this.#byId = db.prepare(
      `SELECT ${COLUMNS} FROM weft_checkpoints WHERE thread_id = ? AND ns = ? AND id = ?`,
    );
    this.#writes = db.prepare(
      `SELECT ${TASK_WRITES_COLUMNS} FROM weft_checkpoint_writes
       WHERE thread_id = ? AND ns = ? AND checkpoint_id = ? ORDER BY seq`,
    );
    const deleteWrites = db.prepare('DELETE FROM weft_checkpoint_writes WHERE thread_id = ?');
    const deleteCheckpoints = db.prepare('DELETE FROM weft_checkpoints WHERE thread_id = ?');
    this.#upsertMany = db.transaction((records: readonly TaskWritesRecord[]) => {
      for (const record of records) this.#upsert(record);
    });
    this.#deleteThread = db.transaction((threadId: string) => {
      deleteWrites.run(threadId);
      deleteCheckpoints.run(threadId);
    });
    this.#claims = new SqliteThreadClaims(db);
    this.#maintenance = new SqliteMaintenance(db, this.#claims, this.#deleteThread);
    // The write fence (ADR 030): a holder's write checks its claim in the write's own transaction.
    const fencedInsert = db.transaction((record: CheckpointRecord) => {
      this.#claims.check(record.threadId);
      this.#insert.run(...checkpointRowValues(record));
    });
    this.#fencedInsert = (record) => fencedInsert.immediate(record);
    const fencedUpsert = db.transaction((records: readonly TaskWritesRecord[]) => {
      for (const threadId of new Set(records.map((record) => record.threadId))) this.#claims.check(threadId);
      for (const record of records) this.#upsert(record);
    });
    this.#fencedUpsert = (records) => fencedUpsert.immediate(records);
  }

  /**
   * @throws {WeftError} code `CHECKPOINT` when the id already exists in this thread and namespace.
   * @throws {CheckpointConflictError} when `record.seq` is taken there (another writer moved the head).
   */
  async put(record: CheckpointRecord): Promise<void> {
    try {
      if (this.#claims.holds(record.threadId)) this.#fencedInsert(record);
      else this.#insert.run(...checkpointRowValues(record));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw checkpointExistsError(record, error);
      if (code === 'SQLITE_CONSTRAINT_UNIQUE' && /\.seq\b/.test((error as Error).message)) {
        const idTaken = this.#byId.get(record.threadId, record.ns, record.id) !== undefined;
        throw seqConflictError(record, idTaken, error);
      }
      throw error;
    }
  }

  /** @throws {CheckpointConflictError} when a live run (of any process on this file) holds the thread. */
  async claimThread(threadId: string): Promise<ThreadClaim> {
    return this.#claims.claim(threadId);
  }

  async putWrites(record: TaskWritesRecord): Promise<void> {
    if (this.#claims.holds(record.threadId)) this.#fencedUpsert([record]);
    else this.#upsert(record);
  }

  /** Stores several tasks' writes in one transaction (one WAL commit instead of one per task). */
  async putWritesBatch(records: readonly TaskWritesRecord[]): Promise<void> {
    if (records.some((record) => this.#claims.holds(record.threadId))) this.#fencedUpsert(records);
    else this.#upsertMany(records);
  }

  #upsert(record: TaskWritesRecord): void {
    this.#upsertWrites.run(...taskWritesRowValues(record));
  }

  /** @throws {CheckpointCorruptError} kind `storage` when the pages holding the checkpoint are damaged. */
  async get(threadId: string, options: GetCheckpointOptions = {}): Promise<StoredCheckpoint | undefined> {
    const ns = options.ns ?? '';
    return readingPages({ threadId, ns, checkpointId: options.id ?? '(latest)' }, () => {
      const row =
        options.id === undefined ? this.#latest.get(threadId, ns) : this.#byId.get(threadId, ns, options.id);
      if (row === undefined) return undefined;
      const writes = this.#writes.all(threadId, ns, row.id).map(taskWritesFromRow);
      return { checkpoint: checkpointFromRow(row), writes };
    });
  }

  /** @throws {CheckpointCorruptError} kind `storage` when the pages holding a listed checkpoint are damaged. */
  async list(threadId: string, options: ListCheckpointsOptions = {}): Promise<CheckpointRecord[]> {
    return readingPages({ threadId, ns: options.ns ?? '', checkpointId: options.before ?? '(list)' }, () =>
      this.#list(threadId, options),
    );
  }

  #list(threadId: string, options: ListCheckpointsOptions): CheckpointRecord[] {
    const limit = options.limit ?? -1;
    if (options.limit !== undefined && options.limit <= 0) return [];
    const ns = options.ns ?? '';
    const params: unknown[] = [threadId, ns];
    if (options.before !== undefined) params.push(threadId, ns, options.before);
    if (options.baseId !== undefined) params.push(threadId, ns, options.baseId, options.baseId);
    const filter = options.filter;
    const statement = this.#listStatement(options.before !== undefined, options.baseId !== undefined);
    if (filter === undefined) return statement.all(...params, limit).map(checkpointFromRow);
    // Metadata equality of nested JSON is checked in JS (SQLite cannot compare JSON by value); the
    // iterator stops reading rows once `limit` matches are found.
    const result: CheckpointRecord[] = [];
    for (const row of statement.iterate(...params, -1)) {
      const record = checkpointFromRow(row);
      if (metadataMatches(record.metadata, filter)) result.push(record);
      if (result.length === limit) break;
    }
    return result;
  }

  async deleteThread(threadId: string): Promise<void> {
    this.#deleteThread(threadId);
  }

  async listThreads(options: ListThreadsOptions = {}): Promise<ThreadSummary[]> {
    return this.#maintenance.listThreads(options);
  }

  async listLinks(threadId: string, ns: string): Promise<CheckpointLink[]> {
    return this.#maintenance.listLinks(threadId, ns);
  }

  /** Deletes in one immediate transaction, after reading the thread's claim and the namespace's head. */
  async deleteCheckpoints(
    threadId: string,
    ns: string,
    ids: readonly string[],
    headId: string,
  ): Promise<DeleteOutcome> {
    return this.#maintenance.deleteCheckpoints(threadId, ns, ids, headId);
  }

  /** Rebases in one immediate transaction, after reading the thread's claim and the namespace's head. */
  async rebaseCheckpoints(
    threadId: string,
    ns: string,
    rebase: Rebase,
    headId: string,
  ): Promise<RebaseOutcome> {
    return this.#maintenance.rebaseCheckpoints(threadId, ns, rebase, headId);
  }

  async deleteIdleThread(threadId: string, before: string): Promise<boolean> {
    return this.#maintenance.deleteIdleThread(threadId, before);
  }

  /** Closes the database if this checkpointer opened it. */
  async close(): Promise<void> {
    this.#claims.close();
    if (this.#ownsDatabase && this.#db.open) this.#db.close();
  }

  #listStatement(before: boolean, baseId: boolean): Statement<unknown[], CheckpointRow> {
    const key = (before ? 1 : 0) | (baseId ? 2 : 0);
    let statement = this.#lists.get(key);
    if (statement === undefined) {
      // `before` is a checkpoint id: list what was stored before it (lower seq), nothing for an unknown id.
      const older =
        ' AND seq < (SELECT b.seq FROM weft_checkpoints b WHERE b.thread_id = ? AND b.ns = ? AND b.id = ?)';
      // No index on base_id (schema 7): the rows built on a snapshot were stored after it, so the seq index
      // is walked from the snapshot's own position (from the start when the snapshot row is missing).
      const built =
        ' AND seq >= coalesce((SELECT b.seq FROM weft_checkpoints b WHERE b.thread_id = ? AND b.ns = ? AND b.id = ?), 0) AND base_id = ?';
      const where = `${before ? older : ''}${baseId ? built : ''}`;
      statement = this.#db.prepare<unknown[], CheckpointRow>(
        `SELECT ${COLUMNS} FROM weft_checkpoints WHERE thread_id = ? AND ns = ?${where} ORDER BY seq DESC LIMIT ?`,
      );
      this.#lists.set(key, statement);
    }
    return statement;
  }
}

/**
 * Runs a read, turning SQLite's own page damage (`SQLITE_CORRUPT`, `SQLITE_NOTADB`) into the one typed
 * corruption error, naming the thread and checkpoint read (issue #52: it surfaced as a raw SQLite error).
 * The connection stays open: the rest of the file keeps serving.
 */
function readingPages<T>(where: { threadId: string; ns: string; checkpointId: string }, read: () => T): T {
  try {
    return read();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !/^SQLITE_(CORRUPT|NOTADB)/.test(code)) throw error;
    throw new CheckpointCorruptError({
      record: where,
      kind: 'storage',
      reason: `the SQLite file is damaged where it is kept (${code}: ${(error as Error).message})`,
      cause: error,
    });
  }
}
