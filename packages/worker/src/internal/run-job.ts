import { type Callbacks, type Checkpointer, Command, type EffectFence, type RunResult } from '@weft/compose';
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
import { describeError, findConflict, findRateLimit } from './failure.js';
import { withJobCallbacks } from './job-callbacks.js';
import { type RunJobData, runJobSchema } from './job-data.js';
import { JournalLease } from './journal-lease.js';
import type { QueueKeys } from './keys.js';
import type { RunRegistry, StoredOutcome } from './run-registry.js';
import { recordSettled } from './settled-record.js';
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
  const controller = new AbortController();
  // Cancels reach this run from here on, so the epoch read that goes with the lease request (one round
  // trip) sees every cancel that came before, and a later one aborts the controller.
  const unregister = runtime.cancels.register(data.threadId, controller);
  const lease = await leaseUnlessCancelled(call, controller).catch((error: unknown) => {
    unregister();
    throw error;
  });
  if (lease === 'cancelled' || lease === undefined) {
    unregister();
    if (lease === 'cancelled') return settleCancelled(call);
    // Another worker holds the thread: put the job back for later (no attempt used).
    await job.moveToDelayed(Date.now() + runtime.leaseRetryMs * (0.5 + Math.random()), token);
    throw new DelayedError();
  }
  const info: LeaseInfo = {
    threadId: data.threadId,
    runId: data.runId,
    workerId: runtime.workerId,
    attempt: job.attemptsStarted,
  };
  if (runtime.stopping())
    controller.abort(new WorkerError('SHUTDOWN', 'the worker closed while this run started'));
  const onJobAbort = (): void => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onJobAbort, { once: true });
  try {
    await notify(runtime.observer.leaseAcquired, info);
    return await runLeased(call, graph, { signal: controller.signal, fence: lease });
  } catch (error) {
    return await handleFailure(call, controller.signal, error);
  } finally {
    signal?.removeEventListener('abort', onJobAbort);
    unregister();
    await notify(runtime.observer.leaseReleased, info);
    await lease.release();
  }
}

/** A held thread lease; `check` (resolves while it is still held) fences the run's effects. */
interface HeldLease {
  release(): Promise<void>;
  check(): Promise<void>;
}

/**
 * Takes the thread's lease (in the journal when there is one, else in Redis) and reads the thread's
 * cancel epoch, both at once: `'cancelled'` when the thread was cancelled after the job was submitted
 * (a lease taken meanwhile is given back), `undefined` when another worker holds the lease.
 */
async function leaseUnlessCancelled(
  call: JobCall,
  controller: AbortController,
): Promise<HeldLease | 'cancelled' | undefined> {
  const { runtime, data } = call;
  const [lease, cancelled] = await Promise.allSettled([
    acquireLease(call, controller),
    runtime.cancels.isCancelled(data.threadId, data.epoch),
  ]);
  const held = lease.status === 'fulfilled' ? lease.value : undefined;
  if (cancelled.status === 'rejected' || cancelled.value) {
    await held?.release();
    if (cancelled.status === 'rejected') throw cancelled.reason;
    return 'cancelled';
  }
  if (lease.status === 'rejected') throw lease.reason;
  return held;
}

/** Takes the thread's lease, or returns `undefined` when another worker has it. */
async function acquireLease(call: JobCall, controller: AbortController): Promise<HeldLease | undefined> {
  const { runtime, data } = call;
  const options = {
    token: `${runtime.workerId}:${data.runId}:${Math.random().toString(36).slice(2)}`,
    ttlMs: runtime.leaseTtlMs,
    onLost: () =>
      controller.abort(new WorkerError('LEASE_LOST', `lost the lease of thread "${data.threadId}"`)),
  };
  return runtime.journal
    ? JournalLease.acquire({
        ...options,
        journal: runtime.journal,
        queue: runtime.queueName,
        threadId: data.threadId,
      })
    : ThreadLease.acquire({ ...options, redis: runtime.redis, key: runtime.keys.lease(data.threadId) });
}

async function runLeased(
  call: JobCall,
  graph: WorkerGraph,
  leased: { readonly signal: AbortSignal; readonly fence: EffectFence },
): Promise<RunStatus> {
  const { runtime, data, job } = call;
  const { signal, fence } = leased;
  const latest = data.kind === 'continue' ? undefined : await latestCheckpoint(runtime, data.threadId);
  // A run Redis forgot and the reconciler queued again may have finished meanwhile: never run it twice.
  const record = await journalRunning(call, latest);
  if (record && isSettled(record.status)) return record.status;
  // The baseline comes from the journal's record when there is one, else from Redis's.
  const marking = runtime.registry.running(data.runId, {
    workerId: runtime.workerId,
    attempts: job.attemptsStarted,
    latest: record?.baseline === undefined ? latest : undefined,
  });
  const stored = await (record ? marking.catch(() => undefined) : marking);
  const input = chooseInput(data, { latest, baseline: record?.baseline ?? stored });
  const callbacks = withJobCallbacks(call.sink.listener(), await jobCallbacks(call));
  const result: RunResult<unknown> = await graph.run(input, {
    threadId: data.threadId,
    runId: data.runId,
    signal,
    // Every finished task stores its writes at once, so a worker dying before its step's checkpoint
    // never makes another worker run that task again.
    taskWrites: 'all',
    // An effect is recorded only while this worker still holds the thread's lease.
    fence,
    ...(callbacks ? { callbacks } : {}),
  });
  const { status, output, interrupts, checkpointId } = result;
  await settle(call, status, { status, output, interrupts, checkpointId });
  return status;
}

/**
 * Marks the run picked up in the journal (when there is one). A run a client without the journal
 * submitted is recorded here first, from its job, so from now on a Redis restart loses it no more than
 * a run the client recorded.
 */
async function journalRunning(call: JobCall, latest: string | undefined) {
  const { runtime, data, job } = call;
  const journal = runtime.journal;
  if (!journal) return undefined;
  const worker = { id: runtime.workerId, attempts: job.attemptsStarted, latest };
  const record = await journal.running(runtime.queueName, data.runId, worker);
  if (record) return record;
  const backoff = job.opts.backoff;
  await journal.submitted(runtime.queueName, data, {
    attempts: job.opts.attempts ?? 1,
    backoffMs: (typeof backoff === 'number' ? backoff : backoff?.delay) ?? 0,
    priority: job.opts.priority,
  });
  return journal.running(runtime.queueName, data.runId, worker);
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
function chooseInput(
  data: RunJobData,
  known: { readonly latest: string | undefined; readonly baseline: string | undefined },
): unknown {
  if (data.kind === 'continue' || known.latest === undefined) return null;
  if (known.latest !== (known.baseline ?? known.latest)) return null;
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
  if (findConflict(error) !== undefined) {
    // Another writer holds the thread (a stalled worker still running it) or took it over: wait for the
    // thread like for a held lease (no attempt used); the run continues from its checkpoint. A stalled
    // worker finds its job lock gone (another worker has the job now): nothing of the job is left to it.
    await job
      .moveToDelayed(Date.now() + runtime.leaseRetryMs * (0.5 + Math.random()), token)
      .catch((moveError: unknown) => {
        if (!/Missing lock|Lock mismatch/.test(String(moveError))) throw moveError;
      });
    throw new DelayedError();
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
  const pauseCarrier = status === 'interrupted' ? call.kept.carrier : undefined;
  await recordSettled(runtime, sink, { runId: data.runId, status, outcome, pauseCarrier });
  await notify(runtime.observer.runSettled, { runId: data.runId, threadId: data.threadId, status });
}

/** Settles a run whose job BullMQ failed for good (called from the worker's `failed` listener). */
export async function settleFailed(runtime: JobRuntime, job: Job, error: Error): Promise<void> {
  const parsed = runJobSchema.safeParse(job.data);
  if (!parsed.success || (await job.getState()) !== 'failed') return;
  const { runId, threadId } = parsed.data;
  await recordSettled(runtime, runtime.sinks(threadId), {
    runId,
    status: 'failed',
    outcome: { error: job.failedReason ?? error.message },
  });
  await notify(runtime.observer.runSettled, { runId, threadId, status: 'failed' });
}

function isSettled(status: RunStatus): boolean {
  return status === 'done' || status === 'interrupted' || status === 'cancelled' || status === 'failed';
}
