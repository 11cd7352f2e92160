/**
 * What a worker observer hears about one run's lease.
 *
 * @example
 * ```ts
 * const log = (lease: LeaseInfo) => console.log(`${lease.workerId} holds ${lease.threadId} (try ${lease.attempt})`);
 * const observer: WorkerObserver = { leaseAcquired: log, leaseReleased: log };
 * ```
 */
export interface LeaseInfo {
  readonly threadId: string;
  readonly runId: string;
  readonly workerId: string;
  /** How many times a worker has started this run's job (1 on the first try). */
  readonly attempt: number;
}

/**
 * Hooks into a worker's life, for metrics, logs and tests. Each may return a promise, which the worker
 * awaits (so keep them fast); an error thrown by a hook is reported on `console.error` and ignored.
 *
 * @example
 * ```ts
 * const settled = new Map<string, number>(); // runs settled, by status
 * const observer: WorkerObserver = {
 *   leaseAcquired: (lease) => console.log(`${lease.workerId} runs ${lease.threadId}`),
 *   runSettled: (run) => void settled.set(run.status, (settled.get(run.status) ?? 0) + 1),
 * };
 * ```
 */
export interface WorkerObserver {
  /** This worker took a thread's lease and is about to run it. */
  readonly leaseAcquired?: (lease: LeaseInfo) => void | Promise<void>;
  /** This worker is about to release a thread's lease (the run stopped). */
  readonly leaseReleased?: (lease: LeaseInfo) => void | Promise<void>;
  /** A run settled on this worker: done, interrupted, cancelled or failed for good. */
  readonly runSettled?: (run: {
    readonly runId: string;
    readonly threadId: string;
    readonly status: string;
  }) => void | Promise<void>;
}

/** Calls a hook, isolating its errors. */
export async function notify<TInfo>(
  hook: ((info: TInfo) => void | Promise<void>) | undefined,
  info: TInfo,
): Promise<void> {
  if (!hook) return;
  try {
    await hook(info);
  } catch (error) {
    console.error('[weft/worker] an observer hook threw; the worker goes on', error);
  }
}
