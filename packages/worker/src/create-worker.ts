import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Callbacks, Checkpointer } from '@weft/compose';
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { CancelListener } from './internal/cancel-listener.js';
import { defaultJournal } from './internal/default-journal.js';
import { type EventStreamOptions, eventSinks } from './internal/event-writer.js';
import { isTransientError } from './internal/failure.js';
import { DEFAULT_QUEUE_NAME, queueKeys } from './internal/keys.js';
import { startReconciler } from './internal/reconciler.js';
import { type JobRuntime, processRunJob, settleFailed } from './internal/run-job.js';
import { RunRegistry } from './internal/run-registry.js';
import type { PostgresRunJournal } from './postgres-run-journal.js';
import { closeRedis, openRedis, type RedisConnection } from './redis-connection.js';
import type { RunStatus } from './run-info.js';
import type { JobRun } from './run-propagation.js';
import { WorkerError } from './worker-error.js';
import { type GraphMap, resolveGraphs } from './worker-graph.js';
import type { WorkerObserver } from './worker-observer.js';

/**
 * Options of {@link createWorker}.
 *
 * @example
 * ```ts
 * const checkpointer = new MemoryCheckpointer(); // one the other workers share, e.g. a PostgresCheckpointer
 * const counterGraph = new StateGraph(z.object({ count: z.number() })).addNode('add', (s) => ({ count: s.count + 1 })).addEdge(START, 'add').addEdge('add', END);
 * const options: WorkerOptions = {
 *   graphs: { counter: (checkpointer) => counterGraph.compile({ checkpointer }) },
 *   connection: 'redis://127.0.0.1:6379',
 *   checkpointer,
 *   concurrency: 8,
 *   limiter: { max: 50, duration: 1000 }, // at most 50 run starts per second, queue-wide
 * };
 * ```
 */
export interface WorkerOptions {
  /** The graphs this worker runs, by the name clients submit them under. */
  readonly graphs: GraphMap;
  /** Redis (the queue, leases, events, cancels). */
  readonly connection: RedisConnection;
  /** Where threads' checkpoints live; shared by every worker (PostgreSQL in production). */
  readonly checkpointer: Checkpointer;
  /** Runs this process works on at once (default 4). */
  readonly concurrency?: number;
  /** The queue (default `weft-runs`); clients must use the same name. */
  readonly queueName?: string;
  /** This worker's id in run records and leases (default `host:pid:random`). */
  readonly workerId?: string;
  /** At most `max` runs start per `duration` ms across all workers of the queue (BullMQ's limiter). */
  readonly limiter?: { readonly max: number; readonly duration: number };
  /** The thread lease: time to live (default 30 s, renewed every third) and retry delay (default 500 ms). */
  readonly lease?: { readonly ttlMs?: number; readonly retryMs?: number };
  /** BullMQ's job lock (default 30 s): a job whose worker stops renewing it is stalled after this. */
  readonly lockDurationMs?: number;
  /** How often stalled jobs are looked for and put back (default 30 s). */
  readonly stalledIntervalMs?: number;
  /** Times a job may stall (its worker died) before it fails (default 5). */
  readonly maxStalledCount?: number;
  /** Which run events to publish to the threads' streams, and how long to keep them. */
  readonly events?: EventStreamOptions;
  /** Which errors a job retry may cure (default {@link isTransientError}). */
  readonly isTransient?: (error: unknown) => boolean;
  /**
   * The durable record of runs in PostgreSQL (give clients the same one, or the same checkpointer).
   * With it, thread leases live in PostgreSQL, and this worker's reconciler queues again every
   * unfinished run Redis no longer has (after a restart without persistence), so no submitted run is
   * lost. Default: with a `PostgresCheckpointer`, a journal on its pool and schema (tables made at
   * start); `false` opts out (Redis alone then holds the queue, the run records and the leases, and a
   * Redis restart without persistence loses the runs in it). See the README's "Guarantees".
   */
  readonly journal?: PostgresRunJournal | false;
  /** How often the reconciler compares the journal with Redis (default 5 000 ms; needs `journal`). */
  readonly reconcileIntervalMs?: number;
  /** Lifecycle hooks (metrics, logs, tests). */
  readonly observer?: WorkerObserver;
  /**
   * Subscribers of each run this worker executes, chosen per job attempt: e.g.
   * `(job) => tracing.callbacks(job)` of `@weft/otel`, which continues the trace the client's `carrier`
   * option wrote and, with a `journal`, links a resumed run to the run that paused (in any process).
   * A callback that throws is reported and never fails the run.
   */
  readonly callbacks?: (job: JobRun) => Callbacks | undefined;
  /** Called with BullMQ's and Redis's errors (default: `console.error`). */
  readonly onError?: (error: Error) => void;
}

/**
 * A running worker. `close()` stops taking jobs and waits for the runs in flight; with
 * `{ requeue: true }` it stops them instead and puts their jobs back, to be continued from their
 * checkpoints by another worker.
 *
 * @example
 * ```ts
 * const counter = new StateGraph(z.object({ count: z.number() })).addNode('add', (s) => ({ count: s.count + 1 })).addEdge(START, 'add').addEdge('add', END);
 * const checkpointer = new MemoryCheckpointer();
 * const worker: WeftWorker = await createWorker({ graphs: { counter: counter.compile({ checkpointer }) }, connection: 'redis://127.0.0.1:6379', checkpointer });
 * process.once('SIGTERM', () => void worker.close({ requeue: true }));
 * ```
 */
export interface WeftWorker {
  readonly id: string;
  readonly queueName: string;
  close(options?: { readonly requeue?: boolean }): Promise<void>;
}

/**
 * Starts a worker: takes run jobs from the queue, runs each graph from its thread's checkpoint while
 * holding the thread's lease, publishes events, honours cancels, and settles runs for clients.
 *
 * @throws WorkerError `INVALID_ARGUMENT` for a concurrency below 1 or a `reconcileIntervalMs` not above 0.
 * @example
 * ```ts
 * const counterGraph = new StateGraph(z.object({ count: z.number() })).addNode('add', (s) => ({ count: s.count + 1 })).addEdge(START, 'add').addEdge('add', END);
 * const checkpointer = new PostgresCheckpointer({ connectionString: process.env.WEFT_PG_URL! });
 * await checkpointer.setup();
 * const worker = await createWorker({
 *   graphs: { counter: (checkpointer) => counterGraph.compile({ checkpointer }) },
 *   connection: 'redis://127.0.0.1:6379',
 *   checkpointer,
 *   concurrency: 8,
 * });
 * process.on('SIGTERM', () => void worker.close({ requeue: true }));
 * ```
 */
export async function createWorker(options: WorkerOptions): Promise<WeftWorker> {
  const concurrency = options.concurrency ?? 4;
  if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
    throw new WorkerError('INVALID_ARGUMENT', `concurrency must be a positive integer, got ${concurrency}`);
  }
  const reconcileMs = options.reconcileIntervalMs ?? 5000;
  if (!(reconcileMs > 0)) {
    throw new WorkerError('INVALID_ARGUMENT', `reconcileIntervalMs must be positive, got ${reconcileMs}`);
  }
  const queueName = options.queueName ?? DEFAULT_QUEUE_NAME;
  const journal = defaultJournal(options.journal, options.checkpointer);
  if (journal && options.journal === undefined) await journal.setup();
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const onError = options.onError ?? ((error: Error) => console.error(`[weft/worker ${workerId}]`, error));
  const keys = queueKeys(queueName);
  const redis = openRedis(options.connection, { name: `weft-worker:${workerId}`, pipelined: true });
  const subscriber = openRedis(options.connection, { name: `weft-worker-sub:${workerId}` });
  const bullConnection = openRedis(options.connection, {
    name: `weft-worker-bull:${workerId}`,
    blocking: true,
  });
  for (const connection of [redis, subscriber, bullConnection]) connection.on('error', onError);
  let cancels: CancelListener;
  try {
    cancels = await CancelListener.start(redis, subscriber, keys);
  } catch (error) {
    await Promise.all([closeRedis(subscriber), closeRedis(redis), closeRedis(bullConnection)]);
    throw error;
  }
  let worker: Worker<unknown, RunStatus> | undefined;
  let stopping = false;
  const runtime: JobRuntime = {
    workerId,
    graphs: resolveGraphs(options.graphs, options.checkpointer),
    checkpointer: options.checkpointer,
    redis,
    keys,
    registry: new RunRegistry(redis, keys),
    queueName,
    journal,
    cancels,
    sinks: eventSinks(redis, keys, options.events),
    leaseTtlMs: options.lease?.ttlMs ?? 30_000,
    leaseRetryMs: options.lease?.retryMs ?? 500,
    isTransient: options.isTransient ?? isTransientError,
    rateLimit: (ms) => worker?.rateLimit(ms) ?? Promise.resolve(),
    observer: options.observer ?? {},
    callbacks: options.callbacks,
    stopping: () => stopping,
  };
  worker = startBullWorker(options, runtime, { connection: bullConnection, concurrency, queueName, onError });
  await worker.waitUntilReady();
  const reconciler = startJournalReconciler(options, { journal, queueName, workerId, onError });
  return {
    id: workerId,
    queueName,
    async close(closeOptions = {}) {
      // Stop taking jobs first (BullMQ marks itself closing at once), so a run handed back is not
      // picked up again by this worker on its way out.
      stopping = true;
      const closing = worker.close();
      if (closeOptions.requeue) {
        cancels.abortAll(new WorkerError('SHUTDOWN', `worker ${workerId} is shutting down`));
      }
      await Promise.all([closing, reconciler?.stop()]);
      await Promise.all([closeRedis(subscriber), closeRedis(redis), closeRedis(bullConnection)]);
    },
  };
}

/** Creates the BullMQ worker that feeds jobs to {@link processRunJob} and settles jobs failed for good. */
function startBullWorker(
  options: WorkerOptions,
  runtime: JobRuntime,
  setup: {
    readonly connection: Redis;
    readonly concurrency: number;
    readonly queueName: string;
    readonly onError: (error: Error) => void;
  },
): Worker<unknown, RunStatus> {
  const worker = new Worker<unknown, RunStatus>(
    setup.queueName,
    (job, token, signal) => processRunJob(runtime, job, token, signal),
    {
      connection: setup.connection,
      concurrency: setup.concurrency,
      name: runtime.workerId,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      maxStalledCount: options.maxStalledCount ?? 5,
      ...(options.limiter ? { limiter: { ...options.limiter } } : {}),
    },
  );
  worker.on('error', setup.onError);
  // Jobs that fail for good (node errors, retries used up, stalled too often) settle here, on
  // whichever worker failed them; `settleFailed` ignores failures BullMQ will retry.
  worker.on('failed', (job, error) => {
    if (job) settleFailed(runtime, job, error).catch(setup.onError);
  });
  return worker;
}

/** With a journal, starts the reconciler on a queue connection of its own; `stop()` closes both. */
function startJournalReconciler(
  options: WorkerOptions,
  setup: {
    readonly journal: PostgresRunJournal | undefined;
    readonly queueName: string;
    readonly workerId: string;
    readonly onError: (error: Error) => void;
  },
): { stop: () => Promise<void> } | undefined {
  const journal = setup.journal;
  if (!journal) return undefined;
  const intervalMs = options.reconcileIntervalMs ?? 5000;
  const connection = openRedis(options.connection, {
    name: `weft-worker-reconciler:${setup.workerId}`,
    blocking: true,
  });
  connection.on('error', setup.onError);
  const queue = new Queue(setup.queueName, { connection });
  queue.on('error', setup.onError);
  const reconciler = startReconciler({
    journal,
    queue,
    redis: connection,
    intervalMs,
    onError: setup.onError,
  });
  return {
    async stop() {
      await reconciler.stop();
      await queue.close();
      await closeRedis(connection);
    },
  };
}
