import { type Callbacks, type Checkpointer, Command, type RunResult } from '@weft/compose';
import { deserialize } from '@weft/compose/store';
import { DelayedError, type Job, UnrecoverableError, WaitingError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { PostgresRunJournal } from '../postgres-run-journal.js';
import type { RunStatus } from '../run-info.js';
import type { JobCarrier, JobRun } from '../run-propagation.js';
import { WorkerError } from '../worker-error.js';
import type { WorkerGraph } from '../worker-graph.js';
import { type LeaseInfo, notify, type WorkerObserver } from '../worker-observer.js';
import type { CancelListener } from './cancel-listener.js';
import type { RunEventSink } from './event-writer.js';
import { describeError, findRateLimit } from './failure.js';
import { withJobCallbacks } from './job-callbacks.js';
import { type RunJobData, runJobSchema } from './job-data.js';
import { JournalLease } from './journal-lease.js';
import type { QueueKeys } from './keys.js';
import type { RunRegistry, StoredOutcome } from './run-registry.js';
import { ThreadLease } from './thread-lease.js';

/** Everything the job processor of one worker shares. */
export interface JobRuntime {
  readonly workerId: string;
  readonly graphs: ReadonlyMap<string, WorkerGraph>;
  readonly checkpointer: Checkpointer;
  readonly redis: Redis;
  readonly keys: QueueKeys;
  readonly registry: RunRegistry;
  /** The queue's name (the journal's key). */
  readonly queueName: string;
  /** The durable run record; when set it is the truth, and the thread lease lives there too. */
  readonly journal: PostgresRunJournal | undefined;
  readonly cancels: CancelListener;
  readonly sinks: (threadId: string) => RunEventSink;
  readonly leaseTtlMs: number;
  readonly leaseRetryMs: number;
  readonly isTransient: (error: unknown) => boolean;
  readonly rateLimit: (ms: number) => Promise<void>;
  readonly observer: WorkerObserver;
  /** Per-job subscribers of the run (the worker's `callbacks` option). */
  readonly callbacks?: ((job: JobRun) => Callbacks | undefined) | undefined;
  /** True once the worker is closing: jobs it still receives are handed back unrun. */
  readonly stopping: () => boolean;
}

/** One job being processed. */
interface JobCall {
  readonly runtime: JobRuntime;
  readonly job: Job;
  readonly token: string | undefined;
  readonly data: RunJobData;
  readonly sink: RunEventSink;
  /** What the job's callbacks asked to keep if the run pauses (`JobRun.onPause`). */
  readonly kept: { carrier?: JobCarrier };
}

/**
 * Processes one run job: takes the thread's lease (or puts the job back for later when another worker
 * holds it), runs the graph from the thread's checkpoint, publishes its events, and settles the run.
 * Returns the run's status (BullMQ's job result); the outcome itself is in the run record.
 *
 * @throws UnrecoverableError for final failures; the original error for transient ones (BullMQ retries
 *   the job with backoff, and the retry continues from the last checkpoint).
 */
export async function processRunJob(
  runtime: JobRuntime,
  job: Job,
  token: string | undefined,
  signal?: AbortSignal,
): Promise<RunStatus> {
  const parsed = runJobSchema.safeParse(job.data);
  if (!parsed.success) throw new UnrecoverableError(`invalid run job ${job.id}: ${parsed.error.message}`);
  const data = parsed.data;
  if (runtime.stopping()) {
    // Picked up while this worker closes (its blocking fetch can return one last job): hand it back.
    await job.moveToDelayed(Date.now() + runtime.leaseRetryMs, token);
    throw new DelayedError();
  }
  const call: JobCall = { runtime, job, token, data, sink: runtime.sinks(data.threadId), kept: {} };
  const graph = runtime.graphs.get(data.graph);
  if (!graph) {
    const known = [...runtime.graphs.keys()].join(', ');
    throw new UnrecoverableError(
      `graph "${data.graph}" is not registered with this worker (it has: ${known})`,
    );
  }
  if (await runtime.cancels.isCancelled(data.threadId, data.epoch)) return settleCancelled(call);
  const controller = new AbortController();
  const lease = await takeLease(call, controller);
  const info: LeaseInfo = {
    threadId: data.threadId,
    runId: data.runId,
    workerId: runtime.workerId,
    attempt: job.attemptsStarted,
  };
  const unregister = runtime.cancels.register(data.threadId, controller);
  if (runtime.stopping())
    controller.abort(new WorkerError('SHUTDOWN', 'the worker closed while this run started'));
  const onJobAbort = (): void => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onJobAbort, { once: true });
  try {
    await notify(runtime.observer.leaseAcquired, info);
    return await runLeased(call, graph, controller.signal);
  } catch (error) {
    return await handleFailure(call, controller.signal, error);
  } finally {
    signal?.removeEventListener('abort', onJobAbort);
    unregister();
    await notify(runtime.observer.leaseReleased, info);
    await lease.release();
  }
}

/**
 * Takes the thread's lease (in the journal when there is one, else in Redis), or puts the job back for
 * later (no attempt used) when another worker has it.
 */
async function takeLease(call: JobCall, controller: AbortController): Promise<{ release(): Promise<void> }> {
  const { runtime, data, job, token } = call;
  const options = {
    token: `${runtime.workerId}:${data.runId}:${Math.random().toString(36).slice(2)}`,
    ttlMs: runtime.leaseTtlMs,
    onLost: () =>
      controller.abort(new WorkerError('LEASE_LOST', `lost the lease of thread "${data.threadId}"`)),
  };
  const lease = runtime.journal
    ? await JournalLease.acquire({
        ...options,
        journal: runtime.journal,
        queue: runtime.queueName,
        threadId: data.threadId,
      })
    : await ThreadLease.acquire({ ...options, redis: runtime.redis, key: runtime.keys.lease(data.threadId) });
  if (lease) return lease;
  await job.moveToDelayed(Date.now() + runtime.leaseRetryMs * (0.5 + Math.random()), token);
  throw new DelayedError();
}

async function runLeased(call: JobCall, graph: WorkerGraph, signal: AbortSignal): Promise<RunStatus> {
  const { runtime, data, job } = call;
  // Checked again now that cancels reach this run: one that came in before is seen here.
  if (await runtime.cancels.isCancelled(data.threadId, data.epoch)) return settleCancelled(call);
  const latest = data.kind === 'continue' ? undefined : await latestCheckpoint(runtime, data.threadId);
  // A run Redis forgot and the reconciler queued again may have finished meanwhile: never run it twice.
  const record = await runtime.journal?.running(runtime.queueName, data.runId, {
    id: runtime.workerId,
    attempts: job.attemptsStarted,
    latest,
  });
  if (record && isSettled(record.status)) return record.status;
  const marking = runtime.registry.running(data.runId, runtime.workerId, job.attemptsStarted);
  await (record ? marking.catch(() => undefined) : marking);
  const input = await chooseInput(runtime, data, { latest, baseline: record?.baseline });
  const callbacks = withJobCallbacks(call.sink.listener(), await jobCallbacks(call));
  const result: RunResult<unknown> = await graph.run(input, {
    threadId: data.threadId,
    runId: data.runId,
    signal,
    // Every finished task stores its writes at once, so a worker dying before its step's checkpoint
    // never makes another worker run that task again.
    taskWrites: 'all',
    ...(callbacks ? { callbacks } : {}),
  });
  const { status, output, interrupts, checkpointId } = result;
  await settle(call, status, { status, output, interrupts, checkpointId });
  return status;
}

/** The worker's `callbacks` for this job attempt; one that throws is reported, and the run goes on without it. */
async function jobCallbacks(call: JobCall): Promise<Callbacks | undefined> {
  const { runtime, data, job } = call;
  if (!runtime.callbacks) return undefined;
  const { graph, runId, threadId, kind, carrier } = data;
  const continues =
    kind === 'start'
      ? undefined
      : // A link between traces is not worth failing the run for.
        await runtime.journal?.pausedCarrier(runtime.queueName, threadId, runId).catch(() => undefined);
  try {
    return runtime.callbacks({
      graph,
      runId,
      threadId,
      kind,
      attempt: job.attemptsStarted,
      carrier,
      continues,
      onPause: (kept) => {
        call.kept.carrier = { ...kept };
      },
    });
  } catch (error) {
    console.error('[weft/worker] the callbacks option threw; the run goes on without them', error);
    return undefined;
  }
}

/**
 * What to run with. A job that starts (or resumes) a turn applies its input only if the thread has no
 * checkpoint written by this run yet: the run's *baseline* (the latest checkpoint id when the run was
 * first picked up) is stored with the run, and a later checkpoint means an earlier attempt of this same
 * job got that far, so the retry continues from the checkpoint (`null`) and finished tasks do not re-run.
 */
async function chooseInput(
  runtime: JobRuntime,
  data: RunJobData,
  known: { readonly latest: string | undefined; readonly baseline: string | undefined },
): Promise<unknown> {
  if (data.kind === 'continue' || known.latest === undefined) return null;
  const baseline = known.baseline ?? (await runtime.registry.baseline(data.runId, known.latest));
  if (known.latest !== baseline) return null;
  const value = data.payload === undefined ? undefined : deserialize(data.payload);
  return data.kind === 'start' ? value : new Command({ resume: value });
}

/** The id of the thread's latest checkpoint (`''` when it has none). */
async function latestCheckpoint(runtime: JobRuntime, threadId: string): Promise<string> {
  return (await runtime.checkpointer.list(threadId, { limit: 1 }))[0]?.id ?? '';
}

async function handleFailure(call: JobCall, signal: AbortSignal, error: unknown): Promise<RunStatus> {
  const { runtime, job, token, data } = call;
  const reason: unknown = signal.aborted ? signal.reason : undefined;
  if (WorkerError.isInstance(reason) && reason.code === 'CANCELLED') return settleCancelled(call);
  if (WorkerError.isInstance(reason) && reason.code === 'SHUTDOWN') {
    // Handed back: another worker (or this one, restarted) continues from the checkpoint.
    await job.moveToWait(token);
    throw new WaitingError();
  }
  const limited = findRateLimit(error);
  if (limited) {
    await runtime.rateLimit(limited.retryAfterMs ?? 1000);
    throw Worker.RateLimitError();
  }
  const cause = WorkerError.isInstance(reason) ? reason : error;
  const message = describeError(cause);
  if (!runtime.isTransient(cause)) throw new UnrecoverableError(message);
  await runtime.registry.retrying(data.runId, message).catch(() => undefined);
  await runtime.journal?.retrying(runtime.queueName, data.runId, message).catch(() => undefined);
  throw cause instanceof Error ? cause : new Error(message);
}

async function settleCancelled(call: JobCall): Promise<RunStatus> {
  const { runtime, data } = call;
  const latest = await runtime.checkpointer.list(data.threadId, { limit: 1 }).catch(() => []);
  await settle(call, 'cancelled', {
    status: 'cancelled',
    output: undefined,
    interrupts: [],
    checkpointId: latest[0]?.id,
  });
  return 'cancelled';
}

/** Stores the outcome, tells waiting clients, and closes the run's part of the event stream. */
async function settle(call: JobCall, status: RunStatus, outcome: StoredOutcome): Promise<void> {
  const { runtime, data, sink } = call;
  await sink.flush().catch(() => undefined);
  const pauseCarrier = status === 'interrupted' ? call.kept.carrier : undefined;
  await recordSettled(runtime, data.runId, { status, outcome, pauseCarrier });
  sink.settled({ runId: data.runId, status });
  await sink.flush().catch(() => undefined);
  await notify(runtime.observer.runSettled, { runId: data.runId, threadId: data.threadId, status });
}

/** Settles a run whose job BullMQ failed for good (called from the worker's `failed` listener). */
export async function settleFailed(runtime: JobRuntime, job: Job, error: Error): Promise<void> {
  const parsed = runJobSchema.safeParse(job.data);
  if (!parsed.success || (await job.getState()) !== 'failed') return;
  const { runId, threadId } = parsed.data;
  const sink = runtime.sinks(threadId);
  await recordSettled(runtime, runId, {
    status: 'failed',
    outcome: { error: job.failedReason ?? error.message },
  });
  sink.settled({ runId, status: 'failed' });
  await sink.flush().catch(() => undefined);
  await notify(runtime.observer.runSettled, { runId, threadId, status: 'failed' });
}

function isSettled(status: RunStatus): boolean {
  return status === 'done' || status === 'interrupted' || status === 'cancelled' || status === 'failed';
}

/**
 * Records a settled run: in the journal first when there is one (the truth; Redis's record and the
 * notification are then best effort, since a client that waits re-reads the journal), else in Redis.
 */
async function recordSettled(
  runtime: JobRuntime,
  runId: string,
  settled: {
    readonly status: RunStatus;
    readonly outcome: StoredOutcome | { readonly error: string };
    readonly pauseCarrier?: JobCarrier | undefined;
  },
): Promise<void> {
  const journaled = (await runtime.journal?.settle(runtime.queueName, runId, settled)) ?? false;
  const redis = runtime.registry.settle(runId, settled.status, settled.outcome);
  await (journaled ? redis.catch(() => undefined) : redis);
}
