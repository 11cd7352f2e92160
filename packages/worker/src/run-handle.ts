import type { RunEvent } from '@weft/compose';
import type { Redis } from 'ioredis';
import type { StreamEntry } from './internal/event-codec.js';
import { readStream } from './internal/event-reader.js';
import type { QueueKeys } from './internal/keys.js';
import type { RunRegistry, StoredOutcome } from './internal/run-registry.js';
import type { SettledWaiter, WaitOptions } from './internal/settled-waiter.js';
import type { PostgresRunJournal } from './postgres-run-journal.js';
import type { RunInfo, WorkerRunResult } from './run-info.js';
import { WorkerError } from './worker-error.js';

/**
 * A submitted run, followed from any process: its result, its events, its record, and cancel.
 *
 * @example
 * ```ts
 * const counter = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END);
 * const graphs = { counter: (checkpointer: Checkpointer) => counter.compile({ checkpointer }) };
 * const client = createClient<typeof graphs>({ connection: 'redis://127.0.0.1:6379' });
 * const handle = await client.submit('counter', { count: 0 }, { threadId: 'order-17' });
 * for await (const event of handle.events()) console.log(event.type);
 * console.log((await handle.result()).output);
 * ```
 */
export interface RunHandle<TOutput = unknown> {
  readonly runId: string;
  readonly threadId: string;
  /**
   * Waits until the run settles: `done`, `interrupted` (resume it with `client.resume`) or `cancelled`.
   *
   * @throws WorkerError `RUN_FAILED` when the run failed for good; `TIMEOUT` past `timeoutMs`.
   */
  result(options?: WaitOptions): Promise<WorkerRunResult<TOutput>>;
  /** This run's events, from its first (the backlog) until it settles; abort with `signal` to stop early. */
  events(options?: { readonly signal?: AbortSignal }): AsyncIterable<RunEvent>;
  /** The run's record (status, worker, attempts). */
  info(): Promise<RunInfo | undefined>;
  /** Cancels the run's thread (see `client.cancel`). */
  cancel(): Promise<void>;
}

/** What a handle needs from its client. */
export interface HandleContext {
  readonly keys: QueueKeys;
  readonly registry: RunRegistry;
  readonly waiter: SettledWaiter;
  /** When set, the truth about runs (see `ClientOptions.journal`). */
  readonly journal?: PostgresRunJournal | undefined;
  readonly queueName: string;
  /** A fresh connection for one blocking stream reader. */
  readonly reader: () => Redis;
  readonly cancel: (threadId: string) => Promise<void>;
  /** True when the thread's event stream exists. */
  readonly exists: (threadId: string) => Promise<boolean>;
}

/** Makes the handle of a run. */
export function runHandle<TOutput>(
  context: HandleContext,
  runId: string,
  threadId: string,
): RunHandle<TOutput> {
  return {
    runId,
    threadId,
    result: (options) => context.waiter.waitFor(runId, () => settledResult<TOutput>(context, runId), options),
    events: (options) => runEvents(context, runId, threadId, options?.signal),
    info: async () =>
      (await context.registry.get(runId)) ?? (await context.journal?.get(context.queueName, runId))?.info,
    cancel: () => context.cancel(threadId),
  };
}

async function settledResult<TOutput>(
  context: HandleContext,
  runId: string,
): Promise<WorkerRunResult<TOutput> | undefined> {
  const record = context.journal
    ? await journalRecord(context.journal, context.queueName, runId)
    : await context.registry.get(runId);
  if (!record) throw new WorkerError('NOT_FOUND', `run "${runId}" is unknown (or its record expired)`);
  if (record.status === 'failed') {
    throw new WorkerError('RUN_FAILED', `run "${runId}" failed: ${record.error ?? 'unknown error'}`);
  }
  if (!record.outcome) return undefined;
  return {
    runId,
    threadId: record.threadId,
    ...record.outcome,
    output: record.outcome.output as TOutput | undefined,
  };
}

async function* runEvents(
  context: HandleContext,
  runId: string,
  threadId: string,
  signal: AbortSignal | undefined,
): AsyncGenerator<RunEvent, void, undefined> {
  // A settled run whose stream already expired has nothing left to read.
  const [record, exists] = await Promise.all([context.registry.get(runId), context.exists(threadId)]);
  if (record?.outcome !== undefined && !exists) return;
  const entries: AsyncGenerator<StreamEntry> = readStream(context.reader(), context.keys.events(threadId), {
    signal,
  });
  for await (const entry of entries) {
    if (entry.kind === 'settled') {
      if (entry.marker.runId === runId) return;
    } else if (entry.event.runId === runId) {
      yield entry.event;
    }
  }
}

async function journalRecord(
  journal: PostgresRunJournal,
  queueName: string,
  runId: string,
): Promise<(RunInfo & { readonly outcome?: StoredOutcome }) | undefined> {
  const run = await journal.get(queueName, runId);
  if (!run) return undefined;
  return run.outcome === undefined ? run.info : { ...run.info, outcome: run.outcome };
}
