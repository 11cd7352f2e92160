import { deserialize, serialize } from '@weft/compose/store';
import pg from 'pg';
import type { RunJobData, RunJobOptions } from './internal/job-data.js';
import type { StoredOutcome } from './internal/run-registry.js';
import type { RunInfo, RunKind, RunStatus } from './run-info.js';
import type { JobCarrier } from './run-propagation.js';
import { WorkerError } from './worker-error.js';

/**
 * Options of {@link PostgresRunJournal}: a pool (shared, not closed by the journal) or a connection
 * string (a pool of its own), and the schema of its two tables (`weft_runs`, `weft_thread_leases`).
 *
 * @example
 * ```ts
 * const options: RunJournalOptions = { connectionString: process.env.WEFT_PG_URL!, schema: 'agents' };
 * const journal = new PostgresRunJournal(options); // tables agents.weft_runs and agents.weft_thread_leases
 * await journal.setup();
 * ```
 */
export interface RunJournalOptions {
  readonly pool?: pg.Pool;
  readonly connectionString?: string;
  /** Default `public`. A plain identifier (letters, digits, `_`). */
  readonly schema?: string;
}

/**
 * How the journal sees a run: the job to (re)queue, its job options, and where it stands.
 *
 * @example
 * ```ts
 * const counter = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END);
 * const checkpointer = new MemoryCheckpointer();
 * const graphs = { counter: counter.compile({ checkpointer }) };
 * const journal = new PostgresRunJournal({ connectionString: process.env.WEFT_PG_URL! });
 * const client = createClient<typeof graphs>({ connection: 'redis://127.0.0.1:6379', journal });
 * const { runId } = await client.submit('counter', { count: 0 });
 * const run: JournalRun | undefined = await journal.get('weft-runs', runId); // 'weft-runs': the default queue
 * if (run?.status === 'done') console.log(run.outcome?.output); // { count: 1 }
 * ```
 */
export interface JournalRun {
  readonly job: RunJobData;
  readonly jobOptions: RunJobOptions;
  readonly status: RunStatus;
  /** The thread's latest checkpoint id when the run was first picked up (`''`: none). */
  readonly baseline: string | undefined;
  readonly info: RunInfo;
  readonly outcome: StoredOutcome | undefined;
}

const SETTLED: readonly RunStatus[] = ['done', 'interrupted', 'cancelled', 'failed'];

/**
 * The durable record of every submitted run, in PostgreSQL: what was asked (graph, thread, input), its
 * status (`queued` when submitted, `running`, then `done` / `interrupted` / `cancelled` / `failed`),
 * its baseline checkpoint and outcome, and the threads' leases. Give the same journal (same database
 * and schema) to `createClient` and `createWorker`: Redis then only carries the queue, events and
 * notifications, and a run Redis forgot (a restart without persistence) is queued again by the
 * workers' reconciler and continues from its last checkpoint; `handle.result()` reads the outcome
 * here. See the README's "Guarantees".
 *
 * @throws WorkerError `INVALID_ARGUMENT` for a schema that is not a plain identifier, or no connection.
 * @example
 * ```ts
 * const counter = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END);
 * const checkpointer = new MemoryCheckpointer();
 * const graphs = { counter: counter.compile({ checkpointer }) };
 * const connection = 'redis://127.0.0.1:6379';
 * const journal = new PostgresRunJournal({ connectionString: process.env.WEFT_PG_URL! });
 * await journal.setup(); // once per deployment; idempotent
 * const worker = await createWorker({ graphs, connection, checkpointer, journal });
 * const client = createClient<typeof graphs>({ connection, journal });
 * ```
 */
export class PostgresRunJournal {
  readonly #pool: pg.Pool;
  readonly #ownsPool: boolean;
  readonly #runs: string;
  readonly #leases: string;
  readonly #schema: string;

  constructor(options: RunJournalOptions) {
    const schema = options.schema ?? 'public';
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(schema))
      throw new WorkerError('INVALID_ARGUMENT', `journal schema "${schema}" must be a plain identifier`);
    if (!options.pool && !options.connectionString)
      throw new WorkerError('INVALID_ARGUMENT', 'PostgresRunJournal needs a pool or a connectionString');
    this.#pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString });
    this.#ownsPool = options.pool === undefined;
    this.#schema = schema;
    this.#runs = `"${schema}".weft_runs`;
    this.#leases = `"${schema}".weft_thread_leases`;
  }

  /** Creates the schema and tables if missing (safe to run from many processes at once). */
  async setup(): Promise<void> {
    const client = await this.#pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [`weft-run-journal:${this.#schema}`]);
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${this.#schema}"`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${this.#runs} (
        queue text NOT NULL, run_id text NOT NULL, thread_id text NOT NULL, graph text NOT NULL,
        kind text NOT NULL, payload text, epoch integer NOT NULL, submitted_at bigint NOT NULL,
        max_attempts integer NOT NULL, backoff_ms integer NOT NULL, priority integer,
        status text NOT NULL, baseline text, outcome text, error text, worker_id text,
        attempts integer NOT NULL DEFAULT 0, updated_at bigint NOT NULL,
        PRIMARY KEY (queue, run_id))`);
      // Added after the first release: trace carriers (the one written at submit, the paused run's own).
      await client.query(
        `ALTER TABLE ${this.#runs} ADD COLUMN IF NOT EXISTS carrier text, ADD COLUMN IF NOT EXISTS pause_carrier text`,
      );
      await client.query(
        `CREATE INDEX IF NOT EXISTS weft_runs_thread ON ${this.#runs} (queue, thread_id, submitted_at)`,
      );
      await client.query(
        `CREATE INDEX IF NOT EXISTS weft_runs_unfinished ON ${this.#runs} (queue, submitted_at) WHERE status IN ('queued', 'running', 'retrying')`,
      );
      await client.query(`CREATE TABLE IF NOT EXISTS ${this.#leases} (
        queue text NOT NULL, thread_id text NOT NULL, token text NOT NULL, expires_at timestamptz NOT NULL,
        PRIMARY KEY (queue, thread_id))`);
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`weft-run-journal:${this.#schema}`]);
      client.release();
    }
  }

  /** Records a submitted run (a second submit of the same run id changes nothing). */
  async submitted(queue: string, job: RunJobData, jobOptions: RunJobOptions): Promise<void> {
    await this.#pool.query(
      `INSERT INTO ${this.#runs} (queue, run_id, thread_id, graph, kind, payload, epoch, submitted_at,
         max_attempts, backoff_ms, priority, carrier, status, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'queued', $8) ON CONFLICT DO NOTHING`,
      [
        queue,
        job.runId,
        job.threadId,
        job.graph,
        job.kind,
        job.payload ?? null,
        job.epoch,
        job.submittedAt,
        jobOptions.attempts,
        jobOptions.backoffMs,
        jobOptions.priority ?? null,
        job.carrier === undefined ? null : JSON.stringify(job.carrier),
      ],
    );
  }

  /**
   * Marks a run picked up by `worker` (unless it settled already) and, given the thread's `latest`
   * checkpoint id, stores it as the run's baseline if none is stored yet — one commit. Returns the
   * record (with the baseline as stored), or `undefined` when the run is not in the journal (submitted
   * by a client without one).
   */
  async running(
    queue: string,
    runId: string,
    worker: { readonly id: string; readonly attempts: number; readonly latest?: string | undefined },
  ): Promise<JournalRun | undefined> {
    const { rows } = await this.#pool.query(
      `UPDATE ${this.#runs} SET status = CASE WHEN status = ANY($5) THEN status ELSE 'running' END,
         worker_id = CASE WHEN status = ANY($5) THEN worker_id ELSE $3 END, attempts = attempts + 1,
         baseline = COALESCE(baseline, $6), updated_at = $4
       WHERE queue = $1 AND run_id = $2 RETURNING *`,
      [queue, runId, worker.id, Date.now(), SETTLED, worker.latest ?? null],
    );
    return rows[0] === undefined ? undefined : toRun(rows[0]);
  }

  /** Marks a run waiting for a job retry after `error`. */
  async retrying(queue: string, runId: string, error: string): Promise<void> {
    await this.#pool.query(
      `UPDATE ${this.#runs} SET status = 'retrying', error = $3, updated_at = $4
       WHERE queue = $1 AND run_id = $2 AND NOT (status = ANY($5))`,
      [queue, runId, error, Date.now(), SETTLED],
    );
  }

  /**
   * Stores a settled run's outcome (and, for a paused run, the trace context its subscribers asked to
   * keep for the run that resumes it); the first settlement wins. Returns false when the run is not in
   * the journal (submitted by a client without one).
   */
  async settle(
    queue: string,
    runId: string,
    settled: {
      readonly status: RunStatus;
      readonly outcome: StoredOutcome | { readonly error: string };
      readonly pauseCarrier?: JobCarrier | undefined;
    },
  ): Promise<boolean> {
    const { outcome, pauseCarrier } = settled;
    const { rows } = await this.#pool.query(
      `UPDATE ${this.#runs} SET
         outcome = CASE WHEN status = ANY($7) THEN outcome ELSE $4 END,
         error = CASE WHEN status = ANY($7) THEN error ELSE $5 END,
         pause_carrier = CASE WHEN status = ANY($7) THEN pause_carrier ELSE $8 END,
         status = CASE WHEN status = ANY($7) THEN status ELSE $3 END, updated_at = $6
       WHERE queue = $1 AND run_id = $2 RETURNING run_id`,
      [
        queue,
        runId,
        settled.status,
        'error' in outcome ? null : serialize(outcome),
        'error' in outcome ? outcome.error : null,
        Date.now(),
        SETTLED,
        pauseCarrier === undefined ? null : JSON.stringify(pauseCarrier),
      ],
    );
    return rows.length === 1;
  }

  /**
   * What the run before `runId` on its thread kept for the run that continues it (its `pauseCarrier`),
   * when that run paused; `undefined` otherwise. Read by a worker starting a `resume` or `continue` run.
   */
  async pausedCarrier(queue: string, threadId: string, runId: string): Promise<JobCarrier | undefined> {
    const { rows } = await this.#pool.query(
      `SELECT p.pause_carrier FROM ${this.#runs} p, ${this.#runs} r
       WHERE r.queue = $1 AND r.run_id = $3 AND p.queue = $1 AND p.thread_id = $2 AND p.run_id <> $3
         AND p.submitted_at <= r.submitted_at AND p.status = ANY($4)
       ORDER BY p.submitted_at DESC LIMIT 1`,
      [queue, threadId, runId, SETTLED],
    );
    const stored = rows[0]?.pause_carrier as string | null | undefined;
    return typeof stored === 'string' ? (JSON.parse(stored) as JobCarrier) : undefined;
  }

  /** One run, or `undefined` when it was never submitted to this queue. */
  async get(queue: string, runId: string): Promise<JournalRun | undefined> {
    const { rows } = await this.#pool.query(`SELECT * FROM ${this.#runs} WHERE queue = $1 AND run_id = $2`, [
      queue,
      runId,
    ]);
    return rows[0] === undefined ? undefined : toRun(rows[0]);
  }

  /** Runs not settled yet, oldest first (what the reconciler checks against Redis). */
  async unfinished(queue: string, limit: number): Promise<JournalRun[]> {
    const { rows } = await this.#pool.query(
      `SELECT * FROM ${this.#runs} WHERE queue = $1 AND status IN ('queued', 'running', 'retrying')
       ORDER BY submitted_at LIMIT $2`,
      [queue, limit],
    );
    return rows.map(toRun);
  }

  /** Takes a thread's lease (`token`, for `ttlMs`) if it is free or expired (PostgreSQL's clock). */
  async acquireLease(
    queue: string,
    threadId: string,
    lease: { token: string; ttlMs: number },
  ): Promise<boolean> {
    const { rowCount } = await this.#pool.query(
      `INSERT INTO ${this.#leases} AS l (queue, thread_id, token, expires_at)
       VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')
       ON CONFLICT (queue, thread_id) DO UPDATE SET token = excluded.token, expires_at = excluded.expires_at
       WHERE l.expires_at < now()`,
      [queue, threadId, lease.token, lease.ttlMs],
    );
    return rowCount === 1;
  }

  /** Extends a lease still held with `token`; false when it was lost. */
  async renewLease(
    queue: string,
    threadId: string,
    lease: { token: string; ttlMs: number },
  ): Promise<boolean> {
    const { rowCount } = await this.#pool.query(
      `UPDATE ${this.#leases} SET expires_at = now() + $4 * interval '1 millisecond'
       WHERE queue = $1 AND thread_id = $2 AND token = $3`,
      [queue, threadId, lease.token, lease.ttlMs],
    );
    return rowCount === 1;
  }

  /**
   * Releases a lease still held with `token`. Committed without waiting for the disk
   * (`synchronous_commit = off`): a release lost in a database crash only delays the next holder
   * until the lease expires.
   */
  async releaseLease(queue: string, threadId: string, token: string): Promise<void> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL synchronous_commit = off');
      await client.query(`DELETE FROM ${this.#leases} WHERE queue = $1 AND thread_id = $2 AND token = $3`, [
        queue,
        threadId,
        token,
      ]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** Closes the pool if the journal opened it. */
  async close(): Promise<void> {
    if (this.#ownsPool) await this.#pool.end();
  }
}

type Row = Record<string, unknown>;

function toRun(row: Row): JournalRun {
  const status = row.status as RunStatus;
  const kind = row.kind as RunKind;
  const job: RunJobData = {
    v: 1,
    kind,
    graph: row.graph as string,
    threadId: row.thread_id as string,
    runId: row.run_id as string,
    ...(row.payload === null ? {} : { payload: row.payload as string }),
    epoch: Number(row.epoch),
    submittedAt: Number(row.submitted_at),
    ...(typeof row.carrier === 'string'
      ? { carrier: JSON.parse(row.carrier) as Record<string, string> }
      : {}),
  };
  return {
    job,
    jobOptions: {
      attempts: Number(row.max_attempts),
      backoffMs: Number(row.backoff_ms),
      ...(row.priority === null ? {} : { priority: Number(row.priority) }),
    },
    status,
    baseline: (row.baseline as string | null) ?? undefined,
    info: {
      runId: job.runId,
      threadId: job.threadId,
      graph: job.graph,
      kind,
      status,
      createdAt: job.submittedAt,
      updatedAt: Number(row.updated_at),
      workerId: (row.worker_id as string | null) ?? undefined,
      attempts: Number(row.attempts),
      error: (row.error as string | null) ?? undefined,
    },
    outcome: row.outcome === null ? undefined : (deserialize(row.outcome as string) as StoredOutcome),
  };
}
