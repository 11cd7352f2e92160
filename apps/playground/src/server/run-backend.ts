import { randomBytes } from 'node:crypto';
import type { Breakpoints, RunInfo } from '../shared/wire.ts';
import { HttpError } from './http-error.ts';
import type { LiveRun } from './live-run.ts';
import type { RegistryEntry } from './registry-entry.ts';

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
  /** A run from an older checkpoint: where it branches (agents start a new session branch there). */
  readonly branchFrom?: string | undefined;
  readonly breakpoints: Breakpoints;
}

/**
 * What the routes need of whoever executes runs: the in-process {@link RunManager} (the default) or
 * the {@link WorkerRunManager} that submits runs to a worker deployment. Either way a run is a
 * {@link LiveRun} whose events feed the SSE stream.
 *
 * @example
 * ```ts
 * const run = await ctx.runs.start({ entry, threadId, kind: 'start', input, breakpoints });
 * await ctx.runs.stop(run.info.id);
 * ```
 */
export interface RunBackend {
  /**
   * Starts a run and returns once it is under way (or queued); events flow to subscribers as it goes.
   *
   * @throws HttpError 409 when the thread already has a live run.
   */
  start(options: StartRunOptions): Promise<LiveRun>;
  /** A run by id (live, or one of the last finished ones of its thread). */
  get(runId: string): LiveRun | undefined;
  /** The live run of a thread, if any. */
  active(threadId: string): LiveRun | undefined;
  /** The runs of a thread still in memory, oldest first. */
  list(threadId: string): RunInfo[];
  /** Stops a run and resolves once it has ended (or after a timeout). False when it had ended. */
  stop(runId: string, timeoutMs?: number): Promise<boolean>;
  /** Stops a thread's live run (if any) and forgets its runs. */
  forget(threadId: string): Promise<void>;
  /** Picks up runs started elsewhere (workers: runs other clients submitted); in-process: nothing. */
  refresh(): Promise<void>;
  /** Server shutdown: stops (in-process) or stops following (workers) every live run. */
  close(): Promise<void>;
}

/**
 * The in-memory book of runs both backends keep: at most one live run per thread, and the last few
 * finished runs of each thread.
 *
 * @example
 * ```ts
 * const book = new RunBook();
 * book.add(run); // throws 409 when the thread is busy
 * book.settle(run);
 * ```
 */
export class RunBook {
  readonly #runs = new Map<string, LiveRun>();
  readonly #byThread = new Map<string, LiveRun[]>();
  readonly #active = new Map<string, LiveRun>();

  /**
   * Registers a run: a new live one, or (`live: false`) one that already ended elsewhere.
   *
   * @throws HttpError 409 when a live run's thread already has a live run.
   */
  add(run: LiveRun, options: { readonly live?: boolean } = {}): void {
    const { threadId } = run.info;
    const live = options.live ?? true;
    const busy = this.#active.get(threadId);
    if (live && busy) {
      throw new HttpError(
        409,
        'THREAD_BUSY',
        `thread "${threadId}" is running (run ${busy.info.id}); stop it or wait for it to end`,
      );
    }
    this.#runs.set(run.info.id, run);
    if (live) this.#active.set(threadId, run);
    const list = this.#byThread.get(threadId) ?? [];
    list.push(run);
    for (const old of list.splice(0, Math.max(0, list.length - keptRunsPerThread)))
      this.#runs.delete(old.info.id);
    this.#byThread.set(threadId, list);
  }

  /** Marks a run as no longer live (its thread may start another). */
  settle(run: LiveRun): void {
    if (this.#active.get(run.info.threadId) === run) this.#active.delete(run.info.threadId);
  }

  /** A run by id. */
  get(runId: string): LiveRun | undefined {
    return this.#runs.get(runId);
  }

  /** The live run of a thread. */
  active(threadId: string): LiveRun | undefined {
    return this.#active.get(threadId);
  }

  /** Every live run. */
  live(): LiveRun[] {
    return [...this.#active.values()];
  }

  /** The runs of a thread, oldest first. */
  list(threadId: string): RunInfo[] {
    return (this.#byThread.get(threadId) ?? []).map((run) => run.info);
  }

  /** Forgets a thread's runs. */
  forget(threadId: string): void {
    for (const run of this.#byThread.get(threadId) ?? []) this.#runs.delete(run.info.id);
    this.#byThread.delete(threadId);
  }
}

/**
 * A new run id (`run-<time>-<hex>`; no `:`, so it can be a worker run id too).
 *
 * @example
 * ```ts
 * newRunId(); // 'run-m3x1k2-a1b2c3'
 * ```
 */
export function newRunId(): string {
  return `run-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}
