import type { Checkpointer } from '@weft/compose';
import type { WeftTracing } from '@weft/otel';
import { PostgresCheckpointer } from '@weft/store-postgres';
import { SqliteCheckpointer } from '@weft/store-sqlite';
import { createClient, type SubmittedRun } from '@weft/worker';
import type { Database } from 'better-sqlite3';
import type { RunBackend } from './run-backend.ts';
import { RunManager } from './run-manager.ts';
import type { ThreadStore } from './thread-store.ts';
import { WorkerRunManager } from './worker-run-manager.ts';

/** A worker deployment to attach to (`weft dev --redis … --pg …`). */
export interface WorkerDeployment {
  /** Redis URL of the workers' queue. */
  readonly redis: string;
  /** PostgreSQL connection string of the workers' checkpoints. */
  readonly pg: string;
  /** The queue (default `weft-runs`, as the workers'). */
  readonly queue?: string | undefined;
  /** The PostgreSQL schema of the checkpoints (default `public`). */
  readonly schema?: string | undefined;
}

/** Where runs execute and where their checkpoints are. */
export interface Backend {
  readonly mode: 'in-process' | 'worker';
  readonly checkpointer: Checkpointer;
  readonly runs: RunBackend;
  /** Closes the checkpointer (after `runs.close()`, which stops runs or the client). */
  close(): Promise<void>;
}

/**
 * Opens the run backend: in-process runs on the SQLite checkpointer (default), or, given `workers`,
 * a worker client and a `PostgresCheckpointer` on the deployment's schema. With `tracing`, in-process
 * runs are traced and runs submitted to workers carry the trace context.
 *
 * @throws whatever PostgreSQL throws when the schema cannot be set up.
 * @example
 * ```ts
 * const backend = await openBackend(db, threads, { redis: 'redis://127.0.0.1:6379', pg: process.env.WEFT_PG_URL! });
 * ```
 */
export async function openBackend(
  db: Database,
  threads: ThreadStore,
  workers?: WorkerDeployment,
  tracing?: WeftTracing,
): Promise<Backend> {
  if (!workers) {
    const checkpointer = new SqliteCheckpointer({ database: db });
    const runs = new RunManager(threads, tracing);
    return {
      mode: 'in-process',
      checkpointer,
      runs,
      close: () => checkpointer.close(),
    };
  }
  const checkpointer = new PostgresCheckpointer({
    connectionString: workers.pg,
    ...(workers.schema === undefined ? {} : { schema: workers.schema }),
  });
  await checkpointer.setup();
  const client = createClient({
    connection: workers.redis,
    ...(workers.queue === undefined ? {} : { queueName: workers.queue }),
    ...(tracing ? { carrier: (run: SubmittedRun) => tracing.carrier(run) } : {}),
  });
  const runs = new WorkerRunManager(client, threads);
  return {
    mode: 'worker',
    checkpointer,
    runs,
    close: () => checkpointer.close(),
  };
}
