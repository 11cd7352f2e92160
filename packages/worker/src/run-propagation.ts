import type { RunKind } from './run-info.js';

/**
 * Opaque propagation fields a job carries from the process that submitted it to the worker that runs
 * it: trace context (W3C `traceparent`, `tracestate`, `baggage`) or anything else a subscriber needs.
 * The worker stores and hands them over without reading them.
 *
 * @example
 * ```ts
 * const carrier: JobCarrier = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };
 * ```
 */
export type JobCarrier = Readonly<Record<string, string>>;

/**
 * A run being submitted, as the client's `carrier` option sees it.
 *
 * @example
 * ```ts
 * const carrier = (run: SubmittedRun) => (run.kind === 'resume' ? { note: `resume of ${run.threadId}` } : undefined);
 * ```
 */
export interface SubmittedRun {
  readonly graph: string;
  readonly runId: string;
  readonly threadId: string;
  readonly kind: RunKind;
}

/**
 * A run a worker is about to execute, as the worker's `callbacks` option sees it: the submitted run,
 * the job attempt, the carrier written at submit (`undefined` when none was), and what the thread's
 * paused run kept for this one. Its fields fit `@weft/otel`'s `tracing.callbacks(job)` as they are.
 *
 * @example
 * ```ts
 * const callbacks = (job: JobRun): Callbacks => ({ onEnd: (e) => console.log(job.runId, e.node, job.attempt) });
 * ```
 */
export interface JobRun extends SubmittedRun {
  /** How many times a worker has started this run's job (1 on the first try). */
  readonly attempt: number;
  readonly carrier: JobCarrier | undefined;
  /**
   * For a `resume` or `continue` run, with a journal: what the thread's previous run gave `onPause` when
   * it paused (in whichever process it ran), e.g. the trace context a resumed run's span links to.
   */
  readonly continues: JobCarrier | undefined;
  /**
   * Keeps fields with this run if it pauses (in the journal, read back as the next run's `continues`);
   * the last call wins. Without a journal nothing is kept.
   */
  readonly onPause: (carrier: JobCarrier) => void;
}
