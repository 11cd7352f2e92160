import { WeftError } from '../../errors/weft-error.js';
import type { Store } from '../../store/store.js';
import type { Checkpointer } from '../checkpointer.js';
import {
  maintainable,
  type PruneReport,
  pruneCheckpoints,
  type RetentionPolicies,
} from './prune-checkpoints.js';

/** Options of {@link startRetention}. */
export interface RetentionOptions {
  /** What each thread keeps (see `RetentionPolicy`). */
  readonly policy: RetentionPolicies;
  /** Milliseconds between sweeps (a positive number); the first sweep runs one interval after the start. */
  readonly everyMs: number;
  /** A long-term document store whose expired documents (`ttlMs`) each sweep removes too. */
  readonly store?: Store;
  /** Called with each sweep's outcome. */
  readonly onSweep?: (report: RetentionReport) => void;
  /** Called when a sweep fails (the next one still runs); by default the failure is dropped. */
  readonly onError?: (error: unknown) => void;
  /** The clock ages are measured by; `Date.now` by default. */
  readonly now?: () => number;
}

/** One sweep: the checkpoint prune, and how many expired documents the Store dropped. */
export interface RetentionReport extends PruneReport {
  /** Expired documents removed from the Store (0 without one). */
  readonly expiredDocuments: number;
}

/** A running background retention (see {@link startRetention}). */
export interface Retention {
  /** Sweeps now (after a sweep in progress, never two at once) and resolves with its report. */
  sweep(): Promise<RetentionReport>;
  /** Stops the timer and waits for a sweep in progress; stopping twice is harmless. */
  stop(): Promise<void>;
}

/**
 * Applies retention in the background: every `everyMs`, prunes the checkpointer by `policy` (see
 * `pruneCheckpoints`: never what a running or paused run needs) and sweeps the Store's expired
 * documents. The timer does not keep the process alive; sweeps never overlap.
 *
 * @throws {WeftError} code `INVALID_ARGUMENT` when `everyMs` is not a positive number or the checkpointer
 * cannot be maintained.
 * @example
 * ```ts
 * const checkpointer = new MemoryCheckpointer();
 * const retention = startRetention(checkpointer, {
 *   policy: { keepLast: 100, threadTtlMs: 30 * 24 * 3_600_000 },
 *   everyMs: 60_000,
 *   onError: (error) => console.error('retention sweep failed', error),
 * });
 * // … on shutdown:
 * await retention.stop();
 * ```
 */
export function startRetention(checkpointer: Checkpointer, options: RetentionOptions): Retention {
  maintainable(checkpointer);
  const { everyMs } = options;
  if (!(typeof everyMs === 'number' && everyMs > 0 && Number.isFinite(everyMs)))
    throw new WeftError(
      'INVALID_ARGUMENT',
      `startRetention everyMs must be a positive number, got ${String(everyMs)}`,
    );
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let inFlight = 0;
  const once = async (): Promise<RetentionReport> => {
    const report = await pruneCheckpoints(checkpointer, {
      policy: options.policy,
      ...(options.now ? { now: options.now } : {}),
    });
    const expiredDocuments = options.store ? await options.store.sweep() : 0;
    const result = { ...report, expiredDocuments };
    options.onSweep?.(result);
    return result;
  };
  const sweep = (): Promise<RetentionReport> => {
    inFlight++;
    const next = running.then(once, once).finally(() => {
      inFlight--;
    });
    running = next.catch(() => undefined);
    return next;
  };
  const timer = setInterval(() => {
    // A tick while a sweep still runs is dropped: slow sweeps never pile up.
    if (stopped || inFlight > 0) return;
    sweep().catch((error: unknown) => options.onError?.(error));
  }, everyMs);
  (timer as { unref?: () => void }).unref?.();
  return {
    sweep,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
