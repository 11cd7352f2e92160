// @weft/worker — runs Weft graphs from a BullMQ (Redis) queue on many processes or machines.

export {
  type ClientOptions,
  createClient,
  type SubmitOptions,
  type WeftClient,
} from './create-client.js';
export { createWorker, type WeftWorker, type WorkerOptions } from './create-worker.js';
export { deleteQueue } from './delete-queue.js';
export type { EventStreamOptions } from './internal/event-writer.js';
export { isTransientError } from './internal/failure.js';
export type { WaitOptions } from './internal/settled-waiter.js';
export { type JournalRun, PostgresRunJournal, type RunJournalOptions } from './postgres-run-journal.js';
export type { RedisConnection } from './redis-connection.js';
export type { RunHandle } from './run-handle.js';
export type { RunInfo, RunKind, RunStatus, WorkerRunResult } from './run-info.js';
export type { JobCarrier, JobRun, SubmittedRun } from './run-propagation.js';
export type { ThreadEntry, ThreadEntryOptions } from './thread-entry.js';
export { rateLimited, WorkerError, type WorkerErrorCode } from './worker-error.js';
export type { GraphMap, GraphSource, InputOf, OutputOf, WorkerGraph } from './worker-graph.js';
export type { LeaseInfo, WorkerObserver } from './worker-observer.js';
