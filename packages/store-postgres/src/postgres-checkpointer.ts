import { CheckpointConflictError, WeftError } from '@weft/compose';
import {
  CHECKPOINT_COLUMNS,
  type CheckpointLink,
  type CheckpointRecord,
  type CheckpointRow,
  checkpointExistsError,
  checkpointFromRow,
  checkpointRowValues,
  claimLostError,
  type DeleteOutcome,
  type GetCheckpointOptions,
  type ListCheckpointsOptions,
  type ListThreadsOptions,
  type MaintainableCheckpointer,
  type Rebase,
  type RebaseOutcome,
  type StoredCheckpoint,
  seqConflictError,
  TASK_WRITES_COLUMNS,
  type TaskWritesRecord,
  type ThreadClaim,
  type ThreadSummary,
  taskWritesFromRow,
  taskWritesRowValues,
} from '@weft/compose/store';
import type { Pool, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import { CommitGroup } from './commit-group.js';
import { type PostgresConnectionOptions, postgresConnection } from './postgres-connection.js';
import { commitGroupedPuts, type GroupedPut } from './postgres-group-put.js';
import { PostgresMaintenance } from './postgres-maintenance.js';
import { type PostgresTables, setupPostgresSchema } from './postgres-schema.js';
import { PostgresThreadClaims } from './postgres-thread-claims.js';
import { statementPrefix } from './statement-prefix.js';

/**
 * Options of {@link PostgresCheckpointer}: a pool (yours) or a connection string (a pool it owns).
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const options: PostgresCheckpointerOptions = { pool, schema: 'agents', tablePrefix: 'app1_' };
 * const checkpointer = new PostgresCheckpointer(options); // tables "agents"."app1_checkpoints", …
 * await checkpointer.setup();
 * ```
 */
export type PostgresCheckpointerOptions = PostgresConnectionOptions & {
  /**
   * Group commit: `put`s and `putWrites` of many concurrent runs that arrive while a commit is in flight
   * are stored together in the next transaction (at most `maxBatch`, default 64, per commit). A lone
   * write commits at once; every write still resolves only after its own commit, and a checkpoint whose
   * position is taken fails alone. Off by default; worth it when one process runs many threads at once
   * (a worker with `concurrency` > 1). `true` is `{ maxBatch: 64 }`.
   */
  readonly groupCommit?: boolean | { readonly maxBatch?: number };
};

/** A checkpoint row with its task writes, as `get` reads them in one query. */
interface CheckpointWithWrites extends CheckpointRow {
  readonly writes: { task_id: string; payload: string; checksum: string | null }[];
}

const COLUMNS = CHECKPOINT_COLUMNS.split(', ')
  .map((column) => `c.${column}`)
  .join(', ');
const UNIQUE_VIOLATION = '23505';
const UNDEFINED_TABLE = '42P01';

/**
 * A checkpoint store in PostgreSQL on `pg`: for many processes and machines. Call {@link setup} once
 * (idempotent, safe to run concurrently) before use. Hot-path queries are named prepared statements; a
 * `get` loads the checkpoint and its task writes in one round trip.
 *
 * @example
 * ```ts
 * import { PostgresCheckpointer } from '@weft/store-postgres';
 *
 * const graph = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END);
 * const checkpointer = new PostgresCheckpointer({ connectionString: process.env.DATABASE_URL! });
 * await checkpointer.setup();
 * const app = graph.compile({ checkpointer });
 * await app.invoke({ count: 1 }, { threadId: 'thread-1' });
 * await checkpointer.close();
 * ```
 */
export class PostgresCheckpointer implements MaintainableCheckpointer {
  readonly #pool: Pool;
  readonly #ownsPool: boolean;
  readonly #tables: PostgresTables;
  readonly #statementPrefix: string;
  readonly #claims: PostgresThreadClaims;
  readonly #group: CommitGroup<GroupedPut> | undefined;
  readonly #maintenance: PostgresMaintenance;

  /** @throws {WeftError} code `INVALID_ARGUMENT` when the schema or table prefix is not a plain identifier. */
  constructor(options: PostgresCheckpointerOptions) {
    const { pool, ownsPool, tables } = postgresConnection(options);
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    this.#tables = tables;
    this.#statementPrefix = statementPrefix(tables);
    this.#claims = new PostgresThreadClaims(
      this.#pool,
      this.#tables.checkpoints,
      this.#tables.threadClaims,
      this.#statementPrefix,
    );
    this.#maintenance = new PostgresMaintenance(
      (config) => this.#query(config),
      tables,
      this.#claims,
      this.#statementPrefix,
    );
    this.#group = groupOf(options.groupCommit, (puts) =>
      commitGroupedPuts(
        (config) => this.#query(config),
        this.#tables,
        `${this.#statementPrefix}_group_put`,
        puts,
      ),
    );
  }

  /**
   * Creates the schema and tables, or upgrades them; a no-op when they are current. Safe to call from
   * many processes at once (an advisory lock serializes them).
   *
   * @throws {WeftError} code `CHECKPOINT` when the tables were written by a newer version of this package.
   * @example
   * ```ts
   * import pg from 'pg';
   * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
   * await new PostgresCheckpointer({ pool, schema: 'agents' }).setup(); // idempotent: once per deployment
   * ```
   */
  async setup(): Promise<void> {
    await setupPostgresSchema(this.#pool, this.#tables);
  }

  /**
   * @throws {WeftError} code `CHECKPOINT` when the id already exists in this thread and namespace.
   * @throws {CheckpointConflictError} when `record.seq` is taken there (another writer moved the head).
   */
  async put(record: CheckpointRecord): Promise<void> {
    const epoch = this.#claims.epochOf(record.threadId);
    if (this.#group) return this.#fencedSubmit({ kind: 'checkpoint', record, epoch });
    const { checkpoints, threadClaims } = this.#tables;
    try {
      const values = checkpointRowValues(record);
      if (epoch === undefined) {
        await this.#query({
          name: `${this.#statementPrefix}_put`,
          text: `INSERT INTO ${checkpoints} (${CHECKPOINT_COLUMNS})
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12)`,
          values,
        });
        return;
      }
      // The write fence (ADR 030): stored only while the thread's epoch is still this claim's.
      const { rowCount } = await this.#query({
        name: `${this.#statementPrefix}_put_fenced`,
        text: `WITH fence AS (SELECT 1 FROM ${threadClaims} WHERE thread_id = $1 AND epoch = $13 FOR SHARE)
               INSERT INTO ${checkpoints} (${CHECKPOINT_COLUMNS})
               SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12 FROM fence`,
        values: [...values, epoch],
      });
      if (rowCount === 0) throw this.#lost(record.threadId, epoch);
    } catch (error) {
      if (CheckpointConflictError.isInstance(error)) throw error;
      if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
      if ((error as { constraint?: unknown }).constraint !== `${this.#tables.prefix}checkpoints_seq_idx`)
        throw checkpointExistsError(record, error);
      const existing = await this.get(record.threadId, { ns: record.ns, id: record.id });
      throw seqConflictError(record, existing !== undefined, error);
    }
  }

  /** @throws {CheckpointConflictError} when a live run (of any process on these tables) holds the thread. */
  async claimThread(threadId: string): Promise<ThreadClaim> {
    return this.#claims.claim(threadId);
  }

  async putWrites(record: TaskWritesRecord): Promise<void> {
    const epoch = this.#claims.epochOf(record.threadId);
    if (this.#group) return this.#fencedSubmit({ kind: 'writes', record, epoch });
    const fenced = epoch !== undefined;
    const { rowCount } = await this.#query({
      name: `${this.#statementPrefix}_put_writes${fenced ? '_fenced' : ''}`,
      text: `${fenced ? `WITH fence AS (SELECT 1 FROM ${this.#tables.threadClaims} WHERE thread_id = $1 AND epoch = $7 FOR SHARE) ` : ''}
             INSERT INTO ${this.#tables.writes} (${TASK_WRITES_COLUMNS})
             ${fenced ? 'SELECT $1, $2, $3, $4, $5, $6 FROM fence' : 'VALUES ($1, $2, $3, $4, $5, $6)'}
             ON CONFLICT (thread_id, ns, checkpoint_id, task_id)
             DO UPDATE SET payload = EXCLUDED.payload, checksum = EXCLUDED.checksum`,
      values: fenced ? [...taskWritesRowValues(record), epoch] : taskWritesRowValues(record),
    });
    if (fenced && rowCount === 0) throw this.#lost(record.threadId, epoch);
  }

  /** A grouped write; one refused for its claim's epoch reports the claim lost. */
  async #fencedSubmit(put: GroupedPut): Promise<void> {
    try {
      await this.#group?.submit(put);
    } catch (error) {
      if (
        put.epoch !== undefined &&
        CheckpointConflictError.isInstance(error) &&
        /lost its claim/.test(error.message)
      )
        this.#claims.lose(put.record.threadId, error);
      throw error;
    }
  }

  /** The error for a write refused by its claim's epoch; the claim is reported lost, so its run stops. */
  #lost(threadId: string, epoch: number): Error {
    const error = claimLostError(threadId, `epoch ${epoch}, the thread was claimed again since`);
    this.#claims.lose(threadId, error);
    return error;
  }

  async get(threadId: string, options: GetCheckpointOptions = {}): Promise<StoredCheckpoint | undefined> {
    const { checkpoints, writes } = this.#tables;
    const byId = options.id !== undefined;
    const { rows } = await this.#query<CheckpointWithWrites>({
      name: `${this.#statementPrefix}_get${byId ? '_by_id' : '_latest'}`,
      text: `SELECT ${COLUMNS}, coalesce((
               SELECT json_agg(json_build_object('task_id', w.task_id, 'payload', w.payload, 'checksum', w.checksum) ORDER BY w.seq)
               FROM ${writes} w WHERE w.thread_id = c.thread_id AND w.ns = c.ns AND w.checkpoint_id = c.id
             ), '[]'::json) AS writes
             FROM ${checkpoints} c WHERE c.thread_id = $1 AND c.ns = $2${byId ? ' AND c.id = $3' : ''}
             ORDER BY c.seq DESC LIMIT 1`,
      values: byId ? [threadId, options.ns ?? '', options.id] : [threadId, options.ns ?? ''],
    });
    const row = rows[0];
    if (row === undefined) return undefined;
    const taskWrites = row.writes.map((write) =>
      taskWritesFromRow({ thread_id: row.thread_id, ns: row.ns, checkpoint_id: row.id, ...write }),
    );
    return { checkpoint: checkpointFromRow(row), writes: taskWrites };
  }

  async list(threadId: string, options: ListCheckpointsOptions = {}): Promise<CheckpointRecord[]> {
    if (options.limit !== undefined && options.limit <= 0) return [];
    const values: unknown[] = [threadId, options.ns ?? ''];
    let where = 'c.thread_id = $1 AND c.ns = $2';
    // `before` is a checkpoint id: what was stored before it (lower seq), nothing for an unknown id.
    if (options.before !== undefined)
      where += ` AND c.seq < (SELECT b.seq FROM ${this.#tables.checkpoints} b WHERE b.thread_id = $1 AND b.ns = $2 AND b.id = $${values.push(options.before)})`;
    // No index on base_id (schema 7): the rows built on a snapshot were stored after it, so the seq index
    // is walked from the snapshot's own position (from the start when the snapshot row is missing).
    if (options.baseId !== undefined) {
      const base = `$${values.push(options.baseId)}`;
      where += ` AND c.seq >= coalesce((SELECT b.seq FROM ${this.#tables.checkpoints} b WHERE b.thread_id = $1 AND b.ns = $2 AND b.id = ${base}), 0) AND c.base_id = ${base}`;
    }
    // Each filter key must hold a JSON-equal value: jsonb equality compares nested values in full.
    const filters = Object.entries(options.filter ?? {});
    for (const [key, value] of filters) {
      where += ` AND c.metadata -> $${values.push(key)}::text = $${values.push(JSON.stringify(value))}::jsonb`;
    }
    const limit = options.limit === undefined ? '' : ` LIMIT $${values.push(options.limit)}`;
    // Without a filter the text depends only on which options are given: a named statement per shape
    // (a worker lists the head of every thread it runs), parsed and planned once per connection.
    const shape = `${options.before === undefined ? '' : 'b'}${options.baseId === undefined ? '' : 'a'}${limit ? 'l' : ''}`;
    const { rows } = await this.#query<CheckpointRow>({
      ...(filters.length === 0 ? { name: `${this.#statementPrefix}_list_${shape}` } : {}),
      text: `SELECT ${COLUMNS} FROM ${this.#tables.checkpoints} c WHERE ${where} ORDER BY c.seq DESC${limit}`,
      values,
    });
    return rows.map(checkpointFromRow);
  }

  async deleteThread(threadId: string): Promise<void> {
    // One statement, so both deletes commit together without an explicit transaction.
    await this.#query({
      name: `${this.#statementPrefix}_delete_thread`,
      text: `WITH deleted_writes AS (DELETE FROM ${this.#tables.writes} WHERE thread_id = $1)
             DELETE FROM ${this.#tables.checkpoints} WHERE thread_id = $1`,
      values: [threadId],
    });
  }

  async listThreads(options: ListThreadsOptions = {}): Promise<ThreadSummary[]> {
    return this.#maintenance.listThreads(options);
  }

  async listLinks(threadId: string, ns: string): Promise<CheckpointLink[]> {
    return this.#maintenance.listLinks(threadId, ns);
  }

  /**
   * Deletes in statements of 5,000 ids, each one transaction that deletes only while no session holds
   * the thread's claim and the namespace's head is `headId`.
   */
  async deleteCheckpoints(
    threadId: string,
    ns: string,
    ids: readonly string[],
    headId: string,
  ): Promise<DeleteOutcome> {
    return this.#maintenance.deleteCheckpoints(threadId, ns, ids, headId);
  }

  /** Rebases in one statement, under the same guard as `deleteCheckpoints`. */
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

  /**
   * The pool and schema this checkpointer uses, for components that keep their own tables beside its
   * tables (the worker's run journal, which workers with a PostgreSQL checkpointer keep by default).
   *
   * @example
   * ```ts
   * const checkpointer = new PostgresCheckpointer({ connectionString: process.env.WEFT_PG_URL!, schema: 'agents' });
   * const { schema } = checkpointer.database(); // 'agents'
   * ```
   */
  database(): { readonly pool: Pool; readonly schema: string } {
    return { pool: this.#pool, schema: this.#tables.schema };
  }

  /** Ends the pool if this checkpointer created it (from a connection string); a pool you passed stays open. */
  async close(): Promise<void> {
    await this.#group?.idle();
    await this.#claims.close();
    if (this.#ownsPool && !this.#pool.ended) await this.#pool.end();
  }

  async #query<TRow extends QueryResultRow>(config: QueryConfig): Promise<QueryResult<TRow>> {
    try {
      return await this.#pool.query<TRow>(config);
    } catch (error) {
      if ((error as { code?: unknown }).code !== UNDEFINED_TABLE) throw error;
      throw new WeftError(
        'CHECKPOINT',
        `the checkpoint tables ${this.#tables.checkpoints} do not exist; call await checkpointer.setup() once before use`,
        { cause: error },
      );
    }
  }
}

/** The group commit `groupCommit` asks for, or none. */
function groupOf(
  option: PostgresCheckpointerOptions['groupCommit'],
  commit: (puts: readonly GroupedPut[]) => Promise<(Error | undefined)[]>,
): CommitGroup<GroupedPut> | undefined {
  if (option === undefined || option === false) return undefined;
  return new CommitGroup(commit, option === true ? 64 : (option.maxBatch ?? 64));
}
