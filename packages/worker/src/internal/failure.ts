import { CheckpointConflictError, CheckpointCorruptError, WeftError } from '@weft/compose';
import { WorkerError } from '../worker-error.js';

/**
 * The default test for errors a job retry (with backoff) may cure: anything thrown outside a node —
 * PostgreSQL, Redis or the network failing — a checkpoint store error, and a lost lease. Node failures
 * (after the node's own retry policy), invalid input, step limits and other engine errors are final:
 * retrying the job would fail the same way — and so is a corrupt checkpoint (`CheckpointCorruptError`),
 * which no retry repairs. (A thread held by another writer, `CheckpointConflictError`, is neither: the
 * worker puts the job back to wait for the thread without using an attempt.)
 *
 * @example
 * ```ts
 * const counter = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END);
 * const checkpointer = new MemoryCheckpointer();
 * const graphs = { counter: counter.compile({ checkpointer }) };
 * const isFlakyUpstream = (error: unknown) => error instanceof Error && /ECONNRESET|502/.test(error.message);
 * const worker = await createWorker({
 *   graphs,
 *   connection: 'redis://127.0.0.1:6379',
 *   checkpointer,
 *   isTransient: (error) => isTransientError(error) || isFlakyUpstream(error), // these get a job retry
 * });
 * ```
 */
export function isTransientError(error: unknown): boolean {
  if (WorkerError.isInstance(error)) return error.code === 'LEASE_LOST';
  if (CheckpointCorruptError.isInstance(error)) return false;
  if (WeftError.isInstance(error)) return error.code === 'CHECKPOINT';
  return true;
}

/**
 * The `CheckpointConflictError` somewhere in `error`'s cause chain, if any: another writer holds the
 * thread (a stalled worker that still runs it), or this run's claim was taken over. Either way the run
 * waits for the thread and continues from its checkpoint; it is not a failure.
 */
export function findConflict(error: unknown): CheckpointConflictError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (CheckpointConflictError.isInstance(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The `RATE_LIMITED` worker error somewhere in `error`'s cause chain, if any. */
export function findRateLimit(error: unknown): WorkerError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (WorkerError.isInstance(current) && current.code === 'RATE_LIMITED') return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A one-line description of a failure, with the codes that identify it. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
