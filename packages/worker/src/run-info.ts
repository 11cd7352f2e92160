import type { PendingInterrupt } from '@weft/compose';

/**
 * Where a run is: submitted, picked up, waiting to retry, or settled (the last four).
 *
 * @example
 * ```ts
 * const settled = (status: RunStatus) => ['done', 'interrupted', 'cancelled', 'failed'].includes(status);
 * ```
 */
export type RunStatus = 'queued' | 'running' | 'retrying' | 'done' | 'interrupted' | 'cancelled' | 'failed';

/**
 * What a run job asked for: a new turn, an answer to interrupts, or going on after a stop.
 *
 * @example
 * ```ts
 * const counter = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END);
 * const graphs = { counter: (checkpointer: Checkpointer) => counter.compile({ checkpointer }) };
 * const client = createClient<typeof graphs>({ connection: 'redis://127.0.0.1:6379' });
 * const resumes = (await client.listRuns()).filter((run) => run.kind === 'resume');
 * ```
 */
export type RunKind = 'start' | 'resume' | 'continue';

/**
 * A run as `listRuns()` and `getRun()` report it (kept in Redis, newest first, for a few days).
 *
 * @example
 * ```ts
 * const counter = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END);
 * const graphs = { counter: (checkpointer: Checkpointer) => counter.compile({ checkpointer }) };
 * const client = createClient<typeof graphs>({ connection: 'redis://127.0.0.1:6379' });
 * for (const run of await client.listRuns({ limit: 20 })) console.log(run.runId, run.status, run.workerId);
 * ```
 */
export interface RunInfo {
  readonly runId: string;
  readonly threadId: string;
  readonly graph: string;
  readonly kind: RunKind;
  readonly status: RunStatus;
  /** Submit time, ms since the epoch. */
  readonly createdAt: number;
  /** Last status change, ms since the epoch. */
  readonly updatedAt: number;
  /** The worker that last picked the run up. */
  readonly workerId: string | undefined;
  /** How many times a worker started the run's job (more after a crash, a retry, or a wait for the thread). */
  readonly attempts: number;
  /** The last error, for `retrying` and `failed` runs. */
  readonly error: string | undefined;
}

/**
 * How a run ended, as `handle.result()` resolves. A run that failed for good rejects instead (with a
 * `WorkerError` of code `RUN_FAILED`).
 *
 * @example
 * ```ts
 * const approval = new StateGraph(z.object({ order: z.string(), approved: z.boolean().optional() }))
 *   .addNode('ask', (s, ctx) => ({ approved: ctx.interrupt<boolean>(`Approve ${s.order}?`) }))
 *   .addEdge(START, 'ask')
 *   .addEdge('ask', END);
 * const graphs = { approval: (checkpointer: Checkpointer) => approval.compile({ checkpointer }) };
 * const client = createClient<typeof graphs>({ connection: 'redis://127.0.0.1:6379' });
 * const handle = await client.submit('approval', { order: 'A-17' });
 * const result = await handle.result();
 * if (result.status === 'interrupted') await client.resume('approval', result.threadId, { approved: true });
 * ```
 */
export interface WorkerRunResult<TOutput = unknown> {
  readonly runId: string;
  readonly threadId: string;
  /** `interrupted`: waiting for `client.resume`; `cancelled`: stopped by `client.cancel` (resumable). */
  readonly status: 'done' | 'interrupted' | 'cancelled';
  /** The graph's output (its state, for state graphs); `undefined` when cancelled. */
  readonly output: TOutput | undefined;
  /** Pending interrupts when `interrupted`. */
  readonly interrupts: readonly PendingInterrupt[];
  /** The thread's latest checkpoint after the run. */
  readonly checkpointId: string | undefined;
}
