import type { RunInfo } from '../shared/wire.ts';
import { LiveRun } from './live-run.ts';
import { newRunId, type RunBackend, RunBook, type StartRunOptions } from './run-backend.ts';
import type { ThreadStore } from './thread-store.ts';

/**
 * What both run backends share: the {@link RunBook} of live and recent runs, the thread statuses, and
 * stopping (ask the run to stop, then wait for it to end). A backend says how a run starts and how it
 * is asked to stop.
 *
 * @example
 * ```ts
 * class Local extends BookedRunBackend { protected cancel(run: LiveRun) { run.controller.abort(); } … }
 * ```
 */
export abstract class BookedRunBackend implements RunBackend {
  protected readonly book = new RunBook();

  protected constructor(
    protected readonly threads: ThreadStore,
    /** How long `stop` waits for a run to end by default. */
    private readonly stopTimeoutMs: number,
  ) {}

  abstract start(options: StartRunOptions): Promise<LiveRun>;
  abstract refresh(): Promise<void>;
  abstract close(): Promise<void>;

  /** Asks a running run to stop (abort it here, or cancel its thread on the workers). */
  protected abstract cancel(run: LiveRun): Promise<void> | void;

  /**
   * A new run of the thread, booked as its live run, with the thread marked running.
   *
   * @throws HttpError 409 when the thread already has a live run.
   */
  protected open(options: StartRunOptions): LiveRun {
    const run = new LiveRun({
      id: newRunId(),
      threadId: options.threadId,
      graphId: options.entry.info.id,
      kind: options.kind,
    });
    this.book.add(run);
    this.threads.setStatus(options.threadId, 'running');
    return run;
  }

  /** Books a finished run and gives its thread the run's status. */
  protected settle(run: LiveRun): void {
    this.book.settle(run);
    this.threads.setStatus(run.info.threadId, run.info.status);
  }

  /** A run by id (live, or one of the last finished ones of its thread). */
  get(runId: string): LiveRun | undefined {
    return this.book.get(runId);
  }

  /** The live run of a thread, if any. */
  active(threadId: string): LiveRun | undefined {
    return this.book.active(threadId);
  }

  /** The runs of a thread still in memory, oldest first. */
  list(threadId: string): RunInfo[] {
    return this.book.list(threadId);
  }

  /** Stops a run and resolves once it has ended (at most `timeoutMs` later). False when it had ended. */
  async stop(runId: string, timeoutMs = this.stopTimeoutMs): Promise<boolean> {
    const run = this.book.get(runId);
    if (run?.info.status !== 'running') return false;
    await this.cancel(run);
    await Promise.race([run.finished, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
    return true;
  }

  /** Stops a thread's live run (if any) and forgets its runs. */
  async forget(threadId: string): Promise<void> {
    const live = this.book.active(threadId);
    if (live) await this.stop(live.info.id);
    this.book.forget(threadId);
  }
}
