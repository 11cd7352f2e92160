import { WeftError } from '@weft/compose';
import type { InterruptInfo, RunInfo } from '../shared/wire.ts';
import { errorInfo, toJson } from './json-safe.ts';
import { LiveRun } from './live-run.ts';
import { newRunId, type RunBackend, RunBook, type StartRunOptions } from './run-backend.ts';
import type { ThreadStore } from './thread-store.ts';

export type { StartRunOptions } from './run-backend.ts';

/**
 * Runs graphs in this process (the default backend): at most one live run per thread, each with its
 * event buffer, and the last few finished runs of each thread. Stopping aborts the run's signal: the
 * engine starts no node afterwards and the run ends as `cancelled` (the thread stays resumable).
 *
 * @example
 * ```ts
 * const run = await runs.start({ entry, threadId, kind: 'start', input: { target: 3 }, breakpoints });
 * await runs.stop(run.info.id);
 * ```
 */
export class RunManager implements RunBackend {
  readonly #threads: ThreadStore;
  readonly #book = new RunBook();

  constructor(threads: ThreadStore) {
    this.#threads = threads;
  }

  /**
   * Starts a run and returns at once; events flow to subscribers as it goes.
   *
   * @throws HttpError 409 when the thread already has a live run.
   */
  async start(options: StartRunOptions): Promise<LiveRun> {
    const run = new LiveRun({
      id: newRunId(),
      threadId: options.threadId,
      graphId: options.entry.info.id,
      kind: options.kind,
    });
    this.#book.add(run);
    this.#threads.setStatus(options.threadId, 'running');
    void this.#execute(run, options);
    return run;
  }

  /** A run by id (live, or one of the last finished ones of its thread). */
  get(runId: string): LiveRun | undefined {
    return this.#book.get(runId);
  }

  /** The live run of a thread, if any. */
  active(threadId: string): LiveRun | undefined {
    return this.#book.active(threadId);
  }

  /** The runs of a thread still in memory, oldest first. */
  list(threadId: string): RunInfo[] {
    return this.#book.list(threadId);
  }

  /** Stops a run and resolves once it has ended (at most `timeoutMs` later). False when it had ended. */
  async stop(runId: string, timeoutMs = 5_000): Promise<boolean> {
    const run = this.#book.get(runId);
    if (run?.info.status !== 'running') return false;
    run.controller.abort(new WeftError('ABORTED', 'stopped from the playground'));
    await Promise.race([run.finished, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
    return true;
  }

  /** Stops a thread's live run (if any) and forgets its runs. */
  async forget(threadId: string): Promise<void> {
    const live = this.#book.active(threadId);
    if (live) await this.stop(live.info.id);
    this.#book.forget(threadId);
  }

  /** Nothing to pick up: every run of this backend starts here. */
  async refresh(): Promise<void> {}

  /** Stops every live run (server shutdown). */
  async close(): Promise<void> {
    await Promise.all(this.#book.live().map((run) => this.stop(run.info.id, 2_000)));
  }

  async #execute(run: LiveRun, options: StartRunOptions): Promise<void> {
    const signal = run.controller.signal;
    try {
      const result = await options.entry.execute({
        runId: run.info.id,
        threadId: options.threadId,
        input: options.input,
        checkpointId: options.checkpointId,
        breakpoints: options.breakpoints,
        signal,
        onEvent: (event) => run.push(toJson(event) as never),
        emit: (event) => {
          if (run.info.status === 'running') run.push({ ts: Date.now(), ...event } as never);
        },
      });
      const interrupts: InterruptInfo[] = result.interrupts.map((i) => ({
        id: i.id,
        value: toJson(i.value),
        path: [...i.path],
      }));
      run.finish({
        status: result.status,
        steps: result.steps,
        interrupts,
        checkpointId: result.checkpointId,
      });
    } catch (error) {
      const status = signal.aborted ? 'cancelled' : 'error';
      run.finish({ status, steps: run.info.steps, interrupts: [], error: errorInfo(error) });
    } finally {
      this.#book.settle(run);
      this.#threads.setStatus(options.threadId, run.info.status);
    }
  }
}
