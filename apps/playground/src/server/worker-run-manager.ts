import { Command } from '@weft/compose';
import type { WeftClient, RunInfo as WorkerRunInfo } from '@weft/worker';
import { BookedRunBackend } from './booked-run-backend.ts';
import { HttpError } from './http-error.ts';
import { errorInfo, toJson, wireEvent } from './json-safe.ts';
import { LiveRun, type RunOutcome } from './live-run.ts';
import type { StartRunOptions } from './run-backend.ts';
import type { ThreadStore } from './thread-store.ts';

/** Worker run statuses that are still under way. */
const unsettled: ReadonlySet<WorkerRunInfo['status']> = new Set(['queued', 'running', 'retrying']);

/**
 * Runs graphs on a worker deployment (`weft dev --redis … --pg …`): starting a run submits it to the
 * queue (`client.submit` / `client.resume`), stopping calls `client.cancel`, and each run's events are
 * forwarded from the thread's Redis stream (`client.entries`) into a {@link LiveRun}, so the SSE routes
 * and the web app see worker runs exactly like local ones. `refresh()` adopts runs other processes
 * submitted. Static breakpoints and continuing from an older checkpoint are not available here.
 *
 * @example
 * ```ts
 * const runs = new WorkerRunManager(createClient({ connection, queueName }), threads);
 * const run = await runs.start({ entry, threadId, kind: 'start', input, breakpoints });
 * ```
 */
export class WorkerRunManager extends BookedRunBackend {
  readonly #client: WeftClient;
  readonly #followers = new Set<AbortController>();

  /** Takes ownership of `client` (closed by {@link WorkerRunManager.close}). */
  constructor(client: WeftClient, threads: ThreadStore) {
    super(threads, 10_000);
    this.#client = client;
  }

  /**
   * Submits a run to the workers and follows its events.
   *
   * @throws HttpError 409 when the thread has a live run; 400 `NOT_SUPPORTED` for a run from a
   *   checkpoint that is not the thread's latest (workers go on from the latest one).
   */
  async start(options: StartRunOptions): Promise<LiveRun> {
    await this.#requireLatest(options);
    const run = this.open(options);
    try {
      await this.#submit(run.info.id, options);
    } catch (error) {
      run.finish({ status: 'error', steps: 0, interrupts: [], error: errorInfo(error) });
      this.settle(run);
      throw error;
    }
    void this.#follow(run);
    return run;
  }

  /** Cancels the run's thread on the workers (its worker stops at the next step). */
  protected async cancel(run: LiveRun): Promise<void> {
    await this.#client.cancel(run.info.threadId);
  }

  /**
   * Adopts recent runs submitted by other processes: their threads join the thread list, and runs
   * still under way are followed live; settled ones are listed with their outcome (history is in
   * PostgreSQL either way).
   */
  async refresh(limit = 100): Promise<void> {
    const runs = (await this.#client.listRuns({ limit })).reverse();
    for (const info of runs) {
      if (this.book.get(info.runId)) continue;
      const live = unsettled.has(info.status);
      // A thread busy with another run here: adopt this one on a later refresh.
      if (live && this.book.active(info.threadId)) continue;
      this.threads.adopt(info.threadId, info.graph);
      const { runId: id, threadId, graph: graphId, kind } = info;
      const run = new LiveRun({ id, threadId, graphId, kind });
      this.book.add(run, { live });
      if (live) {
        this.threads.setStatus(threadId, 'running');
        void this.#follow(run);
      } else run.finish(outcomeOf(info));
    }
  }

  /** Stops following runs (they go on on the workers) and closes the client. */
  async close(): Promise<void> {
    for (const follower of this.#followers) follower.abort();
    await this.#client.close();
  }

  async #requireLatest(options: StartRunOptions): Promise<void> {
    if (options.checkpointId === undefined) return;
    const latest = await options.entry.graph.getState(options.threadId);
    if (latest?.checkpointId === options.checkpointId) return;
    throw new HttpError(
      400,
      'NOT_SUPPORTED',
      `checkpointId: workers go on from the thread's latest checkpoint, not "${options.checkpointId}"; fork with values (which writes a new latest checkpoint) instead`,
    );
  }

  async #submit(runId: string, options: StartRunOptions): Promise<void> {
    const graph = options.entry.info.id;
    if (options.input instanceof Command)
      await this.#client.resume(graph, options.threadId, options.input.resume, { runId });
    else await this.#client.submit(graph, options.input ?? null, { threadId: options.threadId, runId });
  }

  async #follow(run: LiveRun): Promise<void> {
    const controller = new AbortController();
    this.#followers.add(controller);
    const { id, threadId } = run.info;
    try {
      for await (const entry of this.#client.entries(threadId, { signal: controller.signal })) {
        if ('event' in entry) {
          if (entry.event.runId === id) run.push(wireEvent(entry.event));
        } else if (entry.settled.runId === id) break;
      }
      if (!controller.signal.aborted) run.finish(await this.#outcome(run));
    } catch (error) {
      if (!controller.signal.aborted)
        run.finish({ status: 'error', steps: run.info.steps, interrupts: [], error: errorInfo(error) });
    } finally {
      this.#followers.delete(controller);
      if (run.info.status !== 'running') this.settle(run);
    }
  }

  async #outcome(run: LiveRun): Promise<RunOutcome> {
    const steps = run.info.steps;
    try {
      const result = await this.#client.handle(run.info.id, run.info.threadId).result();
      const interrupts = result.interrupts.map((i) => ({
        id: i.id,
        value: toJson(i.value),
        path: [...i.path],
      }));
      return { status: result.status, steps, interrupts, checkpointId: result.checkpointId };
    } catch (error) {
      return { status: 'error', steps, interrupts: [], error: errorInfo(error) };
    }
  }
}

function outcomeOf(info: WorkerRunInfo): RunOutcome {
  const status =
    info.status === 'done' || info.status === 'interrupted'
      ? info.status
      : info.status === 'failed'
        ? 'error'
        : 'cancelled';
  return {
    status,
    steps: 0,
    interrupts: [],
    ...(info.error === undefined ? {} : { error: { name: 'WorkerError', message: info.error } }),
  };
}
