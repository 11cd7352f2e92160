import { WeftError } from '@weft/compose';

/**
 * Every failure `@weft/worker` reports, as a closed union (`error.code`).
 *
 * @example
 * ```ts
 * const code: WorkerErrorCode = 'RUN_FAILED';
 * const client = createClient({ connection: 'redis://127.0.0.1:6379' });
 * const handle = await client.submit('counter', { count: 0 });
 * await handle.result().catch((error: unknown) => {
 *   if (WorkerError.isInstance(error) && error.code === code) console.log(error.message);
 * });
 * ```
 */
export type WorkerErrorCode =
  /** The job names a graph this worker was not given. */
  | 'UNKNOWN_GRAPH'
  /** The job's data failed validation (written by another version, or by hand). */
  | 'INVALID_JOB'
  /** A caller passed a bad option. */
  | 'INVALID_ARGUMENT'
  /** The worker lost the thread's lease while running it (the run is retried from its checkpoint). */
  | 'LEASE_LOST'
  /** The run was cancelled with `client.cancel(threadId)`. */
  | 'CANCELLED'
  /** The worker is shutting down and handed the run back to the queue. */
  | 'SHUTDOWN'
  /** A node asked to back off (see `rateLimited`); the job waits and resumes from its checkpoint. */
  | 'RATE_LIMITED'
  /** The run failed for good (after its job retries); `message` carries the last error. */
  | 'RUN_FAILED'
  /** The run is unknown, or its record expired. */
  | 'NOT_FOUND'
  /** Waiting for a result took longer than the caller allowed. */
  | 'TIMEOUT'
  /** The client or worker was closed. */
  | 'CLOSED';

/** The marker that tells a worker error from other Weft errors, whose codes belong to another union. */
const workerMarker = Symbol.for('weft.worker.error');

/**
 * The base error of `@weft/worker`: a `WeftError` of `@weft/compose` whose readonly `code` comes from
 * {@link WorkerErrorCode}, with a `cause`, and a `Symbol.for` marker so {@link WorkerError.isInstance}
 * also recognises errors from a duplicate copy of the package (`WeftError.isInstance` does too, with
 * its code typed `string`).
 *
 * @example
 * ```ts
 * const client = createClient({ connection: 'redis://127.0.0.1:6379' });
 * const handle = await client.submit('counter', { count: 0 });
 * try {
 *   await handle.result();
 * } catch (error) {
 *   if (WorkerError.isInstance(error) && error.code === 'RUN_FAILED') console.error(error.message);
 * }
 * ```
 */
export class WorkerError extends WeftError<WorkerErrorCode> {
  override readonly family: string = 'worker';
  /** For `RATE_LIMITED`: how long the queue should wait, in milliseconds. */
  readonly retryAfterMs: number | undefined;
  readonly [workerMarker] = true;

  constructor(
    code: WorkerErrorCode,
    message: string,
    options?: { readonly cause?: unknown; readonly retryAfterMs?: number },
  ) {
    super(code, message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'WorkerError';
    this.retryAfterMs = options?.retryAfterMs;
  }

  /** True for any worker error, even one thrown by another copy of this package. */
  static override isInstance(value: unknown): value is WorkerError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as { [workerMarker]?: unknown })[workerMarker] === true
    );
  }
}

/**
 * Makes the error a node throws to say "the model provider is rate limiting us": the worker pauses the
 * whole queue for `retryAfterMs` (BullMQ's manual rate limit), puts the job back without using one of its
 * attempts, and later resumes the run from its last checkpoint. Give the node no retry policy for it, or
 * one that excludes it, so the back-off happens at the queue.
 *
 * @example
 * ```ts
 * const graph = new StateGraph(z.object({ prompt: z.string(), reply: z.string().optional() }))
 *   .addNode('model', async (state) => {
 *     const response = await fetch('https://llm.example.com/complete', { method: 'POST', body: state.prompt });
 *     if (response.status === 429) throw rateLimited(Number(response.headers.get('retry-after')) * 1000);
 *     return { reply: await response.text() };
 *   })
 *   .addEdge(START, 'model')
 *   .addEdge('model', END);
 * ```
 */
export function rateLimited(
  retryAfterMs: number,
  message = 'the model provider is rate limiting',
): WorkerError {
  return new WorkerError('RATE_LIMITED', message, { retryAfterMs });
}
