import { randomUUID } from 'node:crypto';
import { serialize } from '@weft/compose';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { RunKind } from '../run-info.js';
import { WorkerError } from '../worker-error.js';
import { readEpoch } from './cancel-listener.js';
import type { RunJobData } from './job-data.js';
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
  const data: RunJobData = {
    v: 1,
    kind,
    graph,
    threadId,
    runId,
    ...(kind === 'continue' ? {} : { payload: serialize(request.value) }),
    epoch: await readEpoch(context.redis, context.keys, threadId),
    submittedAt: at,
  };
  await context.registry.create({ runId, threadId, graph, kind, at });
  await context.queue.add(graph, data, {
    jobId: runId,
    attempts: context.attempts,
    backoff: { type: 'exponential', delay: context.backoffMs },
    removeOnComplete: { age: 24 * 3600, count: 10_000 },
    removeOnFail: { age: 7 * 24 * 3600 },
    ...(request.priority === undefined ? {} : { priority: request.priority }),
  });
  return { runId, threadId };
}
