import { randomBytes } from 'node:crypto';
import { WeftError } from '@weft/compose';
import type { Breakpoints, InterruptInfo, RunInfo } from '../shared/wire.ts';
import { HttpError } from './http-error.ts';
import { errorInfo, toJson } from './json-safe.ts';
import { LiveRun } from './live-run.ts';
import type { RegistryEntry } from './registry-entry.ts';
import type { ThreadStore } from './thread-store.ts';

/** Finished runs kept in memory per thread (their events feed the timeline). */
const keptRunsPerThread = 20;

/** What starting a run takes. */
export interface StartRunOptions {
  readonly entry: RegistryEntry;
  readonly threadId: string;
  readonly kind: RunInfo['kind'];
  /** The input, `null` (continue) or a `Command` (resume). */
  readonly input: unknown;
  readonly checkpointId?: string | undefined;
  readonly breakpoints: Breakpoints;
}

/**
 * Tracks the runs of the server: at most one live run per thread, each with its event buffer, and the
 * last few finished runs of each thread. Stopping aborts the run's signal: the engine starts no node
 * afterwards and the run ends as `cancelled` (the thread stays resumable).
 *
 * @example
 * ```ts
 * const run = runs.start({ entry, threadId, kind: 'start', input: { target: 3 }, breakpoints });
 * await runs.stop(run.info.id);
 * ```
 */
export class RunManager {
  readonly #threads: ThreadStore;
  readonly #runs = new Map<string, LiveRun>();
  readonly #byThread = new Map<string, LiveRun[]>();
  readonly #active = new Map<string, LiveRun>();

  constructor(threads: ThreadStore) {
    this.#threads = threads;
  }

  /**
   * Starts a run and returns at once; events flow to subscribers as it goes.
   *
   * @throws HttpError 409 when the thread already has a live run.
   */
  start(options: StartRunOptions): LiveRun {
    const busy = this.#active.get(options.threadId);
    if (busy) {
      throw new HttpError(
        409,
        'THREAD_BUSY',
        `thread "${options.threadId}" is running (run ${busy.info.id}); stop it or wait for it to end`,
      );
    }
    const run = new LiveRun({
      id: `run-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`,
      threadId: options.threadId,
      graphId: options.entry.info.id,
      kind: options.kind,
    });
    this.#runs.set(run.info.id, run);
    this.#active.set(options.threadId, run);
    const list = this.#byThread.get(options.threadId) ?? [];
    list.push(run);
    for (const old of list.splice(0, Math.max(0, list.length - keptRunsPerThread)))
      this.#runs.delete(old.info.id);
    this.#byThread.set(options.threadId, list);
    this.#threads.setStatus(options.threadId, 'running');
    void this.#execute(run, options);
    return run;
  }

  /** A run by id (live, or one of the last finished ones of its thread). */
  get(runId: string): LiveRun | undefined {
    return this.#runs.get(runId);
  }

  /** The live run of a thread, if any. */
  active(threadId: string): LiveRun | undefined {
    return this.#active.get(threadId);
  }

  /** The runs of a thread still in memory, oldest first. */
  list(threadId: string): RunInfo[] {
    return (this.#byThread.get(threadId) ?? []).map((run) => run.info);
  }

  /** Stops a run and resolves once it has ended (at most `timeoutMs` later). False when it had ended. */
  async stop(runId: string, timeoutMs = 5_000): Promise<boolean> {
    const run = this.#runs.get(runId);
    if (run?.info.status !== 'running') return false;
    run.controller.abort(new WeftError('ABORTED', 'stopped from the playground'));
    await Promise.race([run.finished, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
    return true;
  }

  /** Stops a thread's live run (if any) and forgets its runs. */
  async forget(threadId: string): Promise<void> {
    const live = this.#active.get(threadId);
    if (live) await this.stop(live.info.id);
    for (const run of this.#byThread.get(threadId) ?? []) this.#runs.delete(run.info.id);
    this.#byThread.delete(threadId);
  }

  /** Stops every live run (server shutdown). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.#active.values()].map((run) => this.stop(run.info.id, 2_000)));
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
      this.#active.delete(options.threadId);
      this.#threads.setStatus(options.threadId, run.info.status);
    }
  }
}
