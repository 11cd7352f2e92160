import { randomUUID } from 'node:crypto';
import { serialize } from '@weft/compose/store';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { PostgresRunJournal } from '../postgres-run-journal.js';
import type { RunKind } from '../run-info.js';
import type { JobCarrier, SubmittedRun } from '../run-propagation.js';
import { WorkerError } from '../worker-error.js';
import { readEpoch } from './cancel-listener.js';
import { jobOptions, type RunJobData } from './job-data.js';
import type { QueueKeys } from './keys.js';
import type { RunRegistry } from './run-registry.js';

/** What submitting needs from the client. */
export interface SubmitContext {
  readonly redis: Redis;
  readonly queue: Queue;
  readonly keys: QueueKeys;
  readonly registry: RunRegistry;
  readonly attempts: number;
  readonly backoffMs: number;
  /** The durable record of runs: written first; Redis then only carries the job. */
  readonly journal?: PostgresRunJournal | undefined;
  /** Writes the job's propagation fields (the client's `carrier` option). */
  readonly carrier?: ((run: SubmittedRun) => JobCarrier | undefined) | undefined;
}

/** One run to queue. */
export interface RunRequest {
  readonly kind: RunKind;
  readonly graph: string;
  readonly value: unknown;
  readonly threadId?: string | undefined;
  readonly runId?: string | undefined;
  readonly priority?: number | undefined;
}

/**
 * Records the run and queues its job (job id = run id, so submitting a run id twice queues it once).
 * With a journal, the run is recorded in PostgreSQL first; once that succeeded the submit succeeds,
 * even if Redis then fails (the workers' reconciler queues the job).
 * The job carries the thread's cancel epoch as of now: a cancel after this moment cancels it.
 *
 * @throws WorkerError `INVALID_ARGUMENT` for a run id BullMQ cannot take (`:` or all digits).
 */
export async function submitRun(
  context: SubmitContext,
  request: RunRequest,
): Promise<{ runId: string; threadId: string }> {
  const runId = request.runId ?? randomUUID();
  if (runId.includes(':') || /^\d+$/.test(runId)) {
    throw new WorkerError('INVALID_ARGUMENT', `run id "${runId}" must not contain ":" nor be an integer`);
  }
  const threadId = request.threadId ?? randomUUID();
  const { kind, graph } = request;
  const at = Date.now();
  const carrier = context.carrier?.({ graph, runId, threadId, kind });
  const data: RunJobData = {
    v: 1,
    kind,
    graph,
    threadId,
    runId,
    ...(kind === 'continue' ? {} : { payload: serialize(request.value) }),
    epoch: await readEpoch(context.redis, context.keys, threadId),
    submittedAt: at,
    ...(carrier && Object.keys(carrier).length > 0 ? { carrier: { ...carrier } } : {}),
  };
  const options = { attempts: context.attempts, backoffMs: context.backoffMs, priority: request.priority };
  const queueRun = async (): Promise<void> => {
    await context.registry.create({ runId, threadId, graph, kind, at });
    await context.queue.add(graph, data, jobOptions(runId, options));
  };
  if (!context.journal) await queueRun();
  else {
    // Recorded in PostgreSQL, the run will run: if Redis fails now, the workers' reconciler queues it.
    await context.journal.submitted(context.queue.name, data, options);
    await queueRun().catch(() => undefined);
  }
  return { runId, threadId };
}
