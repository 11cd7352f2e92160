import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { PostgresRunJournal } from '../postgres-run-journal.js';
import { jobOptions } from './job-data.js';

/** What the reconciler works with. */
export interface ReconcilerOptions {
  readonly journal: PostgresRunJournal;
  readonly queue: Queue;
  /** The queue's connection, for one pipelined look-up of every run's job per pass. */
  readonly redis: Redis;
  /** Time between two passes (ms). */
  readonly intervalMs: number;
  readonly onError: (error: Error) => void;
  /** Called after each pass with the number of runs it queued again (tests, metrics). */
  readonly onPass?: (requeued: number) => void;
}

/** Runs checked per pass, oldest first. */
const BATCH = 1000;

/**
 * One pass: every run the journal holds as unfinished whose job Redis no longer has (a restart without
 * persistence, a flushed database) is queued again under the same job id, so it runs once more from
 * its thread's latest checkpoint. Adding a job id that exists is a no-op in BullMQ, so passes of many
 * workers, and a client's own `add`, never queue a run twice. A job BullMQ failed for good whose run
 * the journal still holds open (its worker died before recording it) is recorded as failed.
 */
export async function reconcileOnce(
  options: Pick<ReconcilerOptions, 'journal' | 'queue' | 'redis'>,
): Promise<number> {
  const { journal, queue, redis } = options;
  const runs = await journal.unfinished(queue.name, BATCH);
  if (runs.length === 0) return 0;
  // One round trip: does each run's job exist, and did BullMQ fail it for good?
  const pipeline = redis.pipeline();
  for (const run of runs)
    pipeline.exists(queue.toKey(run.job.runId)).zscore(queue.toKey('failed'), run.job.runId);
  const replies = (await pipeline.exec()) ?? [];
  let requeued = 0;
  for (const [index, run] of runs.entries()) {
    const [existsError, exists] = replies[index * 2] ?? [];
    const [failedError, failedScore] = replies[index * 2 + 1] ?? [];
    if (existsError || failedError) throw existsError ?? failedError;
    if (exists === 0) {
      await queue.add(run.job.graph, run.job, jobOptions(run.job.runId, run.jobOptions));
      requeued += 1;
    } else if (failedScore !== null && failedScore !== undefined) {
      const job = await queue.getJob(run.job.runId);
      await journal.settle(queue.name, run.job.runId, {
        status: 'failed',
        outcome: { error: job?.failedReason ?? 'the job failed' },
      });
    }
  }
  return requeued;
}

/**
 * Starts reconciling every `intervalMs` (passes never overlap) until `stop()`, which waits for the pass
 * in flight. Errors (Redis or PostgreSQL down) go to `onError`; the next pass tries again.
 */
export function startReconciler(options: ReconcilerOptions): { stop: () => Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> = Promise.resolve();
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      pass = reconcileOnce(options).then(
        (requeued) => options.onPass?.(requeued),
        (error: unknown) => options.onError(error instanceof Error ? error : new Error(String(error))),
      );
      void pass.then(schedule);
    }, options.intervalMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await pass;
    },
  };
}
