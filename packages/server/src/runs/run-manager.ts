// Creates, queues, executes, cancels and follows runs: one run at a time per thread (the others wait as
// `pending`), double texting by `multitask_strategy`, and readers that catch up from the stored events.
import type { JsonValue } from '@weft/compose';
import { notFound, WeftServerError } from '../errors/server-error.js';
import { uuid7 } from '../records/ids.js';
import type {
  AssistantRecord,
  JsonObject,
  MultitaskStrategy,
  RunKwargs,
  RunRecord,
} from '../records/record-types.js';
import type { StreamEvent } from './event-log.js';
import { executeRun, type RunControl, type StopReason, settledThreadStatus } from './execute-run.js';
import { nowIso, type ServerContext } from './server-context.js';

/** A new run, as the routes ask for it. */
export interface RunRequest {
  readonly assistant: AssistantRecord;
  /** The thread; `null` for a stateless run (on a thread of its own). */
  readonly threadId: string | null;
  readonly kwargs: RunKwargs;
  readonly metadata: JsonObject;
  readonly multitaskStrategy: MultitaskStrategy;
  /** What to do when the thread does not exist: `reject` (404, the default) or `create` it. */
  readonly ifNotExists: 'create' | 'reject';
  readonly afterSeconds: number;
  readonly owner: string | null;
}

const inflight = (run: RunRecord) => run.status === 'pending' || run.status === 'running';
const terminal = (run: RunRecord | undefined) => run === undefined || !inflight(run);

/** The server's runs. */
export class RunManager {
  readonly #context: ServerContext;
  /** Runs executing in this process. */
  readonly #active = new Map<
    string,
    RunControl & { readonly threadId: string; readonly done: Promise<void> }
  >();
  /** Threads with a run executing here. */
  readonly #busy = new Set<string>();
  /** Per-thread critical sections (deciding the multitask strategy and writing the run). */
  readonly #locks = new Map<string, Promise<unknown>>();
  readonly #timers = new Set<NodeJS.Timeout>();
  #closing = false;

  constructor(context: ServerContext) {
    this.#context = context;
  }

  /** Runs executing in this process now. */
  get activeCount(): number {
    return this.#active.size;
  }

  /**
   * Creates a run (and, for a stateless run or `if_not_exists: create`, its thread) and starts it when
   * its thread is free. A busy thread follows `multitaskStrategy`.
   *
   * @throws WeftServerError `NOT_FOUND` (thread), `BUSY` (reject on a busy thread), `TOO_MANY_RUNS`.
   */
  async create(request: RunRequest): Promise<RunRecord> {
    if (this.#closing) throw new WeftServerError('UNAVAILABLE', 'the server is shutting down');
    const threadId = request.threadId ?? uuid7();
    const run = await this.#locked(threadId, () => this.#insert(request, threadId));
    this.#pump(threadId);
    return run;
  }

  async #insert(request: RunRequest, threadId: string): Promise<RunRecord> {
    const { records, limits } = this.#context;
    const { assistant, owner } = request;
    const now = nowIso();
    let thread = await records.thread(threadId);
    if (thread && thread.owner !== owner) throw notFound('thread', threadId);
    if (!thread && request.threadId !== null && request.ifNotExists !== 'create')
      throw notFound('thread', threadId);
    if (thread?.graph_id && thread.graph_id !== assistant.graph_id)
      throw new WeftServerError(
        'CONFLICT',
        `thread "${threadId}" holds graph "${thread.graph_id}"'s state; assistant "${assistant.assistant_id}" runs graph "${assistant.graph_id}"`,
      );
    const mine = await records.inflightRuns(owner);
    if (mine.length >= limits.concurrentRunsPerUser)
      throw new WeftServerError(
        'TOO_MANY_RUNS',
        `at most ${limits.concurrentRunsPerUser} runs may be pending or running per user; wait for one to end`,
      );
    const busy = mine.filter((run) => run.thread_id === threadId);
    const others = (await records.runs(threadId)).filter((run) => inflight(run) && run.owner !== owner);
    const running = [...busy, ...others];
    if (running.length > 0 && request.multitaskStrategy === 'reject')
      throw new WeftServerError(
        'BUSY',
        'Thread is already running a task. Wait for it to finish or choose a different multitask strategy.',
      );
    thread ??= {
      thread_id: threadId,
      created_at: now,
      updated_at: now,
      state_updated_at: now,
      metadata: { graph_id: assistant.graph_id, assistant_id: assistant.assistant_id, ...request.metadata },
      status: 'busy',
      config: {},
      graph_id: null,
      owner,
      error: null,
    };
    await records.putThread({
      ...thread,
      status: 'busy',
      graph_id: assistant.graph_id,
      updated_at: now,
      metadata: { ...thread.metadata, graph_id: assistant.graph_id, assistant_id: assistant.assistant_id },
    });
    const run: RunRecord = {
      run_id: uuid7(),
      thread_id: threadId,
      assistant_id: assistant.assistant_id,
      created_at: now,
      updated_at: now,
      status: 'pending',
      metadata: request.metadata,
      multitask_strategy: request.multitaskStrategy,
      kwargs: request.threadId === null ? request.kwargs : { ...request.kwargs, on_completion: 'keep' },
      owner,
      start_after: new Date(Date.now() + request.afterSeconds * 1000).toISOString(),
    };
    await records.putRun(run);
    this.#context.log('info', 'run created', { run_id: run.run_id, thread_id: threadId });
    const strategy = request.multitaskStrategy;
    if (running.length > 0 && (strategy === 'interrupt' || strategy === 'rollback'))
      await this.#stop(running, strategy);
    return run;
  }

  /**
   * Cancels runs: a running one stops at once (`interrupt` keeps its progress, `rollback` discards it
   * and deletes the run); a pending one never starts (`rollback` deletes it).
   */
  async cancel(runs: readonly RunRecord[], action: 'interrupt' | 'rollback'): Promise<void> {
    const threads = new Set(runs.map((run) => run.thread_id));
    await this.#stop(runs, action);
    for (const threadId of threads) this.#pump(threadId);
  }

  async #stop(runs: readonly RunRecord[], action: StopReason): Promise<void> {
    const { records, events } = this.#context;
    for (const run of runs) {
      const active = this.#active.get(run.run_id);
      if (active) {
        active.reason = action;
        active.controller.abort(new Error(`run ${action}ed`));
        continue;
      }
      const current = await records.run(run.run_id);
      if (!current || !inflight(current)) continue;
      if (current.status === 'running' && action !== 'shutdown') {
        // Executing in another process: it reads this and stops the run itself.
        await records.putRun({ ...current, cancel: action, updated_at: nowIso() });
        continue;
      }
      if (action === 'rollback') {
        await records.deleteRun(run.run_id);
        await events.drop(run.run_id);
      } else {
        await records.putRun({ ...current, status: 'interrupted', updated_at: nowIso() });
      }
      events.wake(run.run_id);
    }
  }

  /** Waits for runs stopped by `cancel` to end (for `cancel?wait=1`). */
  async settled(runIds: readonly string[]): Promise<void> {
    await Promise.all(runIds.map((id) => this.#active.get(id)?.done));
  }

  /** Starts the thread's next pending run when the thread is free here. */
  #pump(threadId: string): void {
    if (this.#busy.has(threadId) || this.#closing) return;
    this.#busy.add(threadId);
    void this.#next(threadId)
      .catch((error: unknown) =>
        this.#context.log('error', 'run queue failed', { thread_id: threadId, error: String(error) }),
      )
      .finally(() => this.#busy.delete(threadId));
  }

  async #next(threadId: string): Promise<void> {
    const { records } = this.#context;
    for (;;) {
      const run = (await records.runs(threadId)).find((each) => each.status === 'pending');
      if (!run || this.#closing) return;
      const wait = Date.parse(run.start_after) - Date.now();
      if (wait > 0) {
        const timer = setTimeout(() => {
          this.#timers.delete(timer);
          this.#pump(threadId);
        }, wait);
        this.#timers.add(timer);
        return;
      }
      if (!(await records.claimRun(run.run_id))) return; // another server over the same store took it
      await this.#execute(run);
    }
  }

  async #execute(run: RunRecord): Promise<void> {
    const { records, events } = this.#context;
    const assistant = (await records.assistant(run.assistant_id)) ?? undefined;
    let finish!: () => void;
    const control = {
      controller: new AbortController(),
      threadId: run.thread_id,
      done: new Promise<void>((resolve) => (finish = resolve)),
    } as RunControl & { threadId: string; done: Promise<void> };
    this.#active.set(run.run_id, control);
    const watch = setInterval(
      () => void this.#cancelRequested(run.run_id, control),
      this.#context.limits.pollMs,
    );
    try {
      const outcome = assistant
        ? await executeRun(this.#context, { run, assistant, control })
        : { status: 'error' as const, error: `assistant "${run.assistant_id}" was deleted` };
      await this.#record(run, outcome);
    } finally {
      clearInterval(watch);
      this.#active.delete(run.run_id);
      events.forget(run.run_id);
      events.wake(run.run_id);
      finish();
    }
  }

  /** Stops a run executing here when another process asked (a `cancel` on its record). */
  async #cancelRequested(runId: string, control: RunControl): Promise<void> {
    if (control.controller.signal.aborted) return;
    const record = await this.#context.records.run(runId).catch(() => undefined);
    if (record?.cancel === undefined) return;
    control.reason = record.cancel;
    control.controller.abort(new Error(`run ${record.cancel}ed`));
  }

  async #record(run: RunRecord, outcome: Awaited<ReturnType<typeof executeRun>>): Promise<void> {
    const { records, events, checkpointer } = this.#context;
    if (outcome.status === 'handed-back') {
      // Pending again, to continue from its last checkpoint on whichever server picks it up next.
      await records.putRun({ ...run, status: 'pending', resume: true, updated_at: nowIso() });
      await records.releaseRun(run.run_id);
      return;
    }
    await records.releaseRun(run.run_id);
    const ended: RunRecord =
      outcome.status === 'rolled-back' ? run : { ...run, status: outcome.status, updated_at: nowIso() };
    if (outcome.status === 'rolled-back') {
      await records.deleteRun(run.run_id);
      await events.drop(run.run_id);
    } else {
      const { cancel: _asked, ...rest } = ended;
      await records.putRun(rest);
    }
    const thread = await records.thread(run.thread_id);
    if (!thread) return;
    if (run.kwargs.on_completion === 'delete' && outcome.status !== 'rolled-back') {
      await checkpointer.deleteThread(run.thread_id);
      await records.deleteThread(run.thread_id);
    } else {
      const stillBusy = (await records.runs(run.thread_id)).some(
        (other) => other.run_id !== run.run_id && inflight(other),
      );
      const settled = await settledThreadStatus(this.#context, thread, outcome.error);
      const now = nowIso();
      await records.putThread({
        ...thread,
        status: stillBusy ? 'busy' : settled.status,
        error: settled.error,
        updated_at: now,
        state_updated_at: now,
      });
    }
    this.#context.log('info', 'run ended', { run_id: run.run_id, status: outcome.status });
    if (outcome.status !== 'rolled-back') this.#context.onRunEnd?.(ended, outcome.error ?? null);
  }

  /**
   * The events of a run after `afterId` (-1: all), then its live events until it ends. A reader of a
   * run executing in another process polls the store every `pollMs`.
   */
  async *follow(runId: string, afterId: number, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    const { records, events, limits } = this.#context;
    let last = afterId;
    while (!signal?.aborted) {
      const ended = !this.#active.has(runId) && terminal(await records.run(runId));
      const batch = await events.read(runId, last);
      for (const event of batch) {
        last = event.id;
        yield event;
      }
      if (ended) return;
      if (batch.length === 0) await events.waitFor(runId, limits.pollMs, signal);
    }
  }

  /** Waits for a run to end; resolves with its last `values` (or `{ __error__ }`), else `null`. */
  async join(runId: string, signal?: AbortSignal): Promise<JsonValue> {
    let last: JsonValue = null;
    for await (const { event, data } of this.follow(runId, -1, signal)) {
      if (event === 'values') last = data;
      else if (event === 'error') last = { __error__: data };
    }
    return last;
  }

  /**
   * Continues the runs a stopped server left: `running` ones (its process died) from their thread's last
   * checkpoint, `pending` ones as asked. Only for a store no live server is executing runs on.
   */
  async recover(): Promise<number> {
    const { records } = this.#context;
    const runs = (await records.runs()).filter(inflight);
    for (const run of runs.filter((each) => each.status === 'running')) {
      // Its process is gone (a crash): pending again, to continue from the thread's last checkpoint.
      await records.putRun({ ...run, status: 'pending', resume: true, updated_at: nowIso() });
      await records.releaseRun(run.run_id);
    }
    const threads = new Set(runs.map((run) => run.thread_id));
    for (const threadId of threads) this.#pump(threadId);
    return threads.size;
  }

  /**
   * Stops taking runs, lets running ones finish for up to `drainMs`, then hands the rest back (pending
   * again, to continue from their last checkpoint on the next server that picks them up).
   */
  async close(drainMs: number): Promise<void> {
    this.#closing = true;
    for (const timer of this.#timers) clearTimeout(timer);
    const running = [...this.#active.values()];
    let timer: NodeJS.Timeout | undefined;
    const drained = Promise.all(running.map((run) => run.done));
    await Promise.race([drained, new Promise((resolve) => (timer = setTimeout(resolve, drainMs)))]);
    clearTimeout(timer);
    for (const run of this.#active.values()) {
      run.reason = 'shutdown';
      run.controller.abort(new Error('the server is shutting down'));
    }
    await drained;
  }

  async #locked<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#locks.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.#locks.set(key, settled);
    try {
      return await next;
    } finally {
      if (this.#locks.get(key) === settled) this.#locks.delete(key);
    }
  }
}
