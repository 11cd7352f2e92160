import type { Checkpointer, RunEvent } from '@weft/compose';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { publishCancel } from './internal/cancel-listener.js';
import { defaultJournal } from './internal/default-journal.js';
import { readStream } from './internal/event-reader.js';
import { DEFAULT_QUEUE_NAME, queueKeys } from './internal/keys.js';
import { RunRegistry } from './internal/run-registry.js';
import { SettledWaiter } from './internal/settled-waiter.js';
import { type RunRequest, type SubmitContext, submitRun } from './internal/submit-run.js';
import type { PostgresRunJournal } from './postgres-run-journal.js';
import { closeRedis, openRedis, type RedisConnection } from './redis-connection.js';
import { type HandleContext, type RunHandle, runHandle } from './run-handle.js';
import type { RunInfo } from './run-info.js';
import type { JobCarrier, SubmittedRun } from './run-propagation.js';
import type { ThreadEntry, ThreadEntryOptions } from './thread-entry.js';
import type { GraphMap, InputOf, OutputOf } from './worker-graph.js';

/**
 * Options of {@link createClient}.
 *
 * @example
 * ```ts
 * const options: ClientOptions = { connection: 'redis://127.0.0.1:6379', retry: { attempts: 3 } };
 * ```
 */
export interface ClientOptions {
  /** Redis, as the workers use it. */
  readonly connection: RedisConnection;
  /** The queue (default `weft-runs`). */
  readonly queueName?: string;
  /** Job retries for transient failures (default 5 attempts, exponential backoff from 1 s). */
  readonly retry?: { readonly attempts?: number; readonly backoffMs?: number };
  /**
   * The durable record of runs, as the workers use it. With it, `submit` records each run in
   * PostgreSQL before queueing it, and `result()` / `getRun()` read from there, so a Redis restart
   * loses no run and no result. See the README's "Guarantees".
   */
  readonly journal?: PostgresRunJournal | false;
  /**
   * The workers' checkpointer: a `PostgresCheckpointer` gives the client a journal on its pool and
   * schema (unless `journal` is given or `false`), the one workers with that checkpointer keep by
   * default — so submits are recorded before they are queued and results outlive a Redis restart.
   */
  readonly checkpointer?: Checkpointer;
  /**
   * Propagation fields to send with each submitted run, read by the worker's `callbacks` option: e.g.
   * `(run) => tracing.carrier(run)` of `@weft/otel`, so one trace spans this process and every worker
   * that runs the job. Called once per `submit`/`resume`; `undefined` or `{}` sends nothing.
   */
  readonly carrier?: (run: SubmittedRun) => JobCarrier | undefined;
}

/**
 * Options of `submit` and `resume`.
 *
 * @example
 * ```ts
 * const counter = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END);
 * const graphs = { counter: (checkpointer: Checkpointer) => counter.compile({ checkpointer }) };
 * const client = createClient<typeof graphs>({ connection: 'redis://127.0.0.1:6379' });
 * await client.submit('counter', { count: 0 }, { threadId: 'order-17', priority: 1 });
 * ```
 */
export interface SubmitOptions {
  /** The thread to run on (default: a new one). Runs on one thread never overlap. */
  readonly threadId?: string;
  /** An id for the run (default: a new UUID); submitting an id twice queues it once. No `:` allowed. */
  readonly runId?: string;
  /** Lower runs first (BullMQ priority, 1 = highest); default: first in, first out. */
  readonly priority?: number;
}

/**
 * Submits, resumes, cancels and follows runs executed by workers elsewhere. `TGraphs` (the worker's
 * graph map type) makes graph names and inputs checked; without it both are open.
 *
 * @example
 * ```ts
 * const approval = new StateGraph(z.object({ order: z.string(), approved: z.boolean().optional() }))
 *   .addNode('ask', (s, ctx) => ({ approved: ctx.interrupt<boolean>(`Approve ${s.order}?`) }))
 *   .addEdge(START, 'ask')
 *   .addEdge('ask', END);
 * const graphs = { approval: (checkpointer: Checkpointer) => approval.compile({ checkpointer }) };
 * const client: WeftClient<typeof graphs> = createClient({ connection: 'redis://127.0.0.1:6379' });
 * const paused = await (await client.submit('approval', { order: 'A-17' })).result();
 * if (paused.status === 'interrupted') await client.resume('approval', paused.threadId, true);
 * ```
 */
export interface WeftClient<TGraphs extends GraphMap = GraphMap> {
  readonly queueName: string;
  /** Queues a run of `graph` with `input` (`null` continues the thread from its latest checkpoint). */
  submit<TName extends keyof TGraphs & string>(
    graph: TName,
    input: InputOf<TGraphs[TName]> | null,
    options?: SubmitOptions,
  ): Promise<RunHandle<OutputOf<TGraphs[TName]>>>;
  /** Answers the thread's pending interrupts: one value, or `{ [interruptId]: value }`. */
  resume<TName extends keyof TGraphs & string>(
    graph: TName,
    threadId: string,
    value: unknown,
    options?: Omit<SubmitOptions, 'threadId'>,
  ): Promise<RunHandle<OutputOf<TGraphs[TName]>>>;
  /** Stops the thread's running run (it is checkpointed and can be continued) and its queued runs. */
  cancel(threadId: string): Promise<void>;
  /** The thread's run events, backlog first, then live, until `signal` aborts or the loop breaks. */
  events(threadId: string, options?: ThreadEntryOptions): AsyncIterable<RunEvent>;
  /** Like `events`, with stream ids (for SSE `Last-Event-ID`) and a marker when each run settles. */
  entries(threadId: string, options?: ThreadEntryOptions): AsyncIterable<ThreadEntry>;
  /** The handle of a run submitted by any process. */
  handle<TOutput = unknown>(runId: string, threadId: string): RunHandle<TOutput>;
  /** One run's record. */
  getRun(runId: string): Promise<RunInfo | undefined>;
  /** Recent runs, newest first (default 50). */
  listRuns(options?: { readonly limit?: number; readonly offset?: number }): Promise<RunInfo[]>;
  close(): Promise<void>;
}

/**
 * Connects to a worker deployment's queue.
 *
 * @example
 * ```ts
 * const counter = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END);
 * const graphs = { counter: (checkpointer: Checkpointer) => counter.compile({ checkpointer }) };
 * const client = createClient<typeof graphs>({ connection: 'redis://127.0.0.1:6379' });
 * const handle = await client.submit('counter', { count: 0 });
 * console.log((await handle.result()).output);
 * await client.close();
 * ```
 */
export function createClient<TGraphs extends GraphMap = GraphMap>(
  options: ClientOptions,
): WeftClient<TGraphs> {
  const queueName = options.queueName ?? DEFAULT_QUEUE_NAME;
  const keys = queueKeys(queueName);
  const journal = defaultJournal(options.journal, options.checkpointer);
  // A journal made here has its tables made before the first submit (workers make them at start too).
  let ready: Promise<void> | undefined =
    journal && options.journal === undefined ? undefined : Promise.resolve();
  const journalReady = (): Promise<void> => (ready ??= (journal as PostgresRunJournal).setup());
  const redis = openRedis(options.connection, { name: 'weft-client' });
  const subscriber = openRedis(options.connection, { name: 'weft-client-sub' });
  const queueConnection = openRedis(options.connection, { name: 'weft-client-queue', blocking: true });
  const queue = new Queue(queueName, { connection: queueConnection });
  const registry = new RunRegistry(redis, keys);
  const readers = new Set<Redis>();
  const reader = (): Redis => {
    const connection = openRedis(options.connection, { name: 'weft-client-reader', blocking: true });
    readers.add(connection);
    connection.once('end', () => readers.delete(connection));
    return connection;
  };
  const cancel = (threadId: string): Promise<void> => publishCancel(redis, keys, threadId);
  const context: HandleContext = {
    keys,
    registry,
    waiter: new SettledWaiter(subscriber, keys.settledChannel),
    journal,
    queueName,
    reader,
    cancel,
    exists: async (threadId) => (await redis.exists(keys.events(threadId))) === 1,
  };
  const submitContext: SubmitContext = {
    redis,
    queue,
    keys,
    registry,
    attempts: options.retry?.attempts ?? 5,
    backoffMs: options.retry?.backoffMs ?? 1000,
    journal,
    carrier: options.carrier,
  };
  const enqueue = async <TOutput>(request: RunRequest): Promise<RunHandle<TOutput>> => {
    await journalReady();
    const { runId, threadId } = await submitRun(submitContext, request);
    return runHandle<TOutput>(context, runId, threadId);
  };
  const entries = (threadId: string, entryOptions: ThreadEntryOptions = {}): AsyncIterable<ThreadEntry> =>
    threadEntries(reader(), keys.events(threadId), entryOptions);

  return {
    queueName,
    submit: (graph, input, submit = {}) =>
      enqueue({ kind: input === null ? 'continue' : 'start', graph, value: input, ...submit }),
    resume: (graph, threadId, value, submit = {}) =>
      enqueue({ kind: 'resume', graph, value, ...submit, threadId }),
    cancel,
    entries,
    events: (threadId, entryOptions) => eventsOf(entries(threadId, entryOptions)),
    handle: (runId, threadId) => runHandle(context, runId, threadId),
    getRun: async (runId) => {
      const record = await registry.get(runId);
      if (record) return withoutOutcome(record);
      return (await journal?.get(queueName, runId))?.info;
    },
    listRuns: (listOptions) => registry.list(listOptions),
    async close() {
      for (const connection of readers) connection.disconnect();
      await queue.close();
      await Promise.all([closeRedis(redis), closeRedis(subscriber), closeRedis(queueConnection)]);
    },
  };
}

async function* threadEntries(
  redis: Redis,
  key: string,
  options: ThreadEntryOptions,
): AsyncGenerator<ThreadEntry> {
  for await (const entry of readStream(redis, key, { from: options.from, signal: options.signal })) {
    yield entry.kind === 'event'
      ? { id: entry.id, event: entry.event }
      : { id: entry.id, settled: entry.marker };
  }
}

async function* eventsOf(entries: AsyncIterable<ThreadEntry>): AsyncGenerator<RunEvent> {
  for await (const entry of entries) if ('event' in entry) yield entry.event;
}

function withoutOutcome(record: RunInfo & { readonly outcome?: unknown }): RunInfo {
  const { outcome: _outcome, ...info } = record;
  return info;
}
