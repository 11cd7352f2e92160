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
});

/** A validated run job. */
export type RunJobData = z.infer<typeof runJobSchema>;
