import { z } from 'zod';

/**
 * What a run job carries. Values (`payload`) are tagged JSON from `@weft/compose`'s `serialize`, so
 * dates, maps, sets and errors survive the trip through Redis.
 *
 * - `start`: a new turn on the thread with `payload` as input;
 * - `resume`: answers the thread's pending interrupts with `payload` (`Command({ resume })`);
 * - `continue`: goes on from the thread's latest checkpoint (after a cancel, say); no payload.
 */
export const runJobSchema = z.object({
  v: z.literal(1),
  kind: z.enum(['start', 'resume', 'continue']),
  graph: z.string().min(1),
  threadId: z.string().min(1),
  runId: z.string().min(1),
  payload: z.string().optional(),
  /** The thread's cancel epoch when the run was submitted; a later cancel raises it. */
  epoch: z.number().int().nonnegative(),
  submittedAt: z.number(),
  /** Propagation fields from the submitting process (trace context), handed to the worker's `callbacks`. */
  carrier: z.record(z.string(), z.string()).optional(),
});

/** A validated run job. */
export type RunJobData = z.infer<typeof runJobSchema>;

/** How a run's job is queued: retries with exponential backoff, kept a while after it ends. */
export interface RunJobOptions {
  readonly attempts: number;
  readonly backoffMs: number;
  readonly priority?: number | undefined;
}

/** BullMQ options of a run's job (job id = run id, so adding a run twice queues it once). */
export function jobOptions(runId: string, options: RunJobOptions) {
  return {
    jobId: runId,
    attempts: options.attempts,
    backoff: { type: 'exponential', delay: options.backoffMs },
    removeOnComplete: { age: 24 * 3600, count: 10_000 },
    removeOnFail: { age: 7 * 24 * 3600 },
    ...(options.priority === undefined ? {} : { priority: options.priority }),
  };
}
