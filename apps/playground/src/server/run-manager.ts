import { WeftError } from '@weft/compose';
import type { WeftTracing } from '@weft/otel';
import type { InterruptInfo } from '../shared/wire.ts';
import { BookedRunBackend } from './booked-run-backend.ts';
import { errorInfo, toJson, wireEvent } from './json-safe.ts';
import type { LiveRun } from './live-run.ts';
import type { StartRunOptions } from './run-backend.ts';
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
export class RunManager extends BookedRunBackend {
  readonly #tracing: WeftTracing | undefined;

  /** `tracing` (`weft dev --otlp`) subscribes to every run. */
  constructor(threads: ThreadStore, tracing?: WeftTracing) {
    super(threads, 5_000);
    this.#tracing = tracing;
  }

  /**
   * Starts a run and returns at once; events flow to subscribers as it goes.
   *
   * @throws HttpError 409 when the thread already has a live run.
   */
  async start(options: StartRunOptions): Promise<LiveRun> {
    const run = this.open(options);
    void this.#execute(run, options);
    return run;
  }

  /** Nothing to pick up: every run of this backend starts here. */
  async refresh(): Promise<void> {}

  /** Stops every live run (server shutdown). */
  async close(): Promise<void> {
    await Promise.all(this.book.live().map((run) => this.stop(run.info.id, 2_000)));
  }

  /** Aborts the run's signal: the engine starts no node afterwards and the run ends as `cancelled`. */
  protected cancel(run: LiveRun): void {
    run.controller.abort(new WeftError('ABORTED', 'stopped from the playground'));
  }

  async #execute(run: LiveRun, options: StartRunOptions): Promise<void> {
    const signal = run.controller.signal;
    const traced = this.#tracing?.callbacks().onEvent;
    try {
      const result = await options.entry.execute({
        runId: run.info.id,
        threadId: options.threadId,
        input: options.input,
        checkpointId: options.checkpointId,
        branchFrom: options.branchFrom,
        breakpoints: options.breakpoints,
        signal,
        onEvent: (event) => {
          traced?.(event);
          return run.push(wireEvent(event));
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
      this.settle(run);
    }
  }
}
