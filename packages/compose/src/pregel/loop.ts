import { abortError } from '../errors/abort-error.js';
import { StepLimitError } from '../errors/step-limit-error.js';
import { isCommand } from '../graph/command.js';
import { END, START } from '../graph/constants.js';
import { isPromiseLike } from '../runnable/runnable.js';
import { atCheckpoint } from '../state/reduce-key.js';
import { type AppliedStep, applyStateWrites } from './apply.js';
import { type Breakpoints, breakpointInterrupts } from './breakpoints.js';
import { emptyRouting, type Finished, mergeInbox, planNext, type RoutingState } from './plan.js';
import type { RunContext, RunObserver } from './run-context.js';
import { runStep, type StepCall } from './step.js';
import { SubgraphWrites } from './subgraph-writes.js';
import { type PendingInterrupt, type Task, TaskPaused } from './task.js';
import type { ResumeValues } from './task-context.js';
import { type CompiledNode, type CompiledState, END_INDEX, type Topology } from './topology.js';

/** How a run of the loop ended. */
export interface LoopResult {
  readonly status: 'done' | 'interrupted';
  /** State (state graphs) or the value that reached END (dataflow graphs). */
  readonly output: unknown;
  readonly interrupts: readonly PendingInterrupt[];
  readonly steps: number;
}

/** Hooks the durability layer attaches to a loop (checkpoints, task writes). All optional. */
export interface LoopHooks {
  /** After the input was applied and after every completed step (the loop's `step` is that step). */
  readonly afterStep?: (loop: PregelLoop, record: StepRecord) => Promise<void> | undefined;
  /** A task of a step with several tasks finished (before the step completes). */
  readonly taskDone?: (loop: PregelLoop, task: Task, output: unknown) => Promise<void> | undefined;
  /** The step paused (a node interrupted, or a breakpoint): outputs by task position and the interrupts. */
  readonly paused?: (
    loop: PregelLoop,
    outputs: readonly unknown[],
    interrupts: readonly PendingInterrupt[],
  ) => Promise<void>;
  /** The prefix of the ids of the tasks planned next (default: the next step number). */
  readonly taskPrefix?: (loop: PregelLoop) => string;
}

/** What one completed step wrote (input for checkpoints). */
export interface StepRecord {
  /** Node name (or START) and its normalized write, in task order; tasks that wrote nothing are absent. */
  readonly writes: ReadonlyArray<readonly [node: string, update: unknown]>;
  readonly changed: readonly string[];
}

/**
 * The superstep loop of one graph run: plan → execute → apply, until nothing is triggered.
 * Holds the run's mutable state; the pure parts live in `plan.ts` and `apply.ts`, task execution in
 * `step.ts`/`runner.ts`, durability in the hooks.
 */
export class PregelLoop {
  /** The step about to run (or, inside `afterStep`, the step just completed). */
  step = -1;
  stepsRun = 0;
  values: Record<string, unknown> = {};
  versions: Record<string, number> = {};
  routing: RoutingState = emptyRouting();
  tasks: Task[] = [];
  /** Writes made by this graph's nodes, in order (kept for nested state graphs). */
  readonly writes: Array<readonly [string, unknown]> | undefined;
  /** Outputs of tasks that finished in a step that then paused, by task position (not run again). */
  known: Map<number, unknown> | undefined;
  /** Resume values by task id. */
  resume: ReadonlyMap<string, ResumeValues> | undefined;
  /** `ctx.once` results of paused tasks, by task id (restored with their resume values). */
  memo: ReadonlyMap<string, ReadonlyMap<string, unknown>> | undefined;
  /** Static breakpoints; `skipBefore` lets a resumed step pass its before-breakpoint once. */
  breakpoints: Breakpoints | undefined;
  skipBefore = false;
  /** Store every finished task's writes, not only those of steps with several tasks. */
  saveEveryTask = false;
  /** The checkpoint this loop continues from, when it is not a durable run's (`updateState`). */
  checkpointId: string | undefined;
  private resumeUsed: ReadonlyMap<string, ResumeValues> | undefined;

  constructor(
    readonly topology: Topology,
    readonly run: RunContext,
    private readonly hooks: LoopHooks = {},
    recordWrites = false,
  ) {
    this.writes = recordWrites ? [] : undefined;
    if (topology.state) this.values = { ...topology.state.defaults };
  }

  /** Applies the run's input (as START's write) at the current step and plans the next one. */
  async begin(input: unknown): Promise<void> {
    const { topology } = this;
    let changed: readonly string[] = [];
    if (topology.state) {
      const applied = this.applyState([START], [input]);
      this.values = applied.values;
      changed = applied.changed;
      this.bump(changed);
      const wait = this.run.observer.values?.(this.values, this.run.path);
      if (wait) await wait;
    }
    const start: Finished = { node: undefined, output: input, goto: undefined };
    const planned = planNext(topology, [start], this.routing, this.routerInput, this.prefix());
    this.tasks = isPromiseLike(planned) ? await planned : planned;
    const wait = this.hooks.afterStep?.(this, { writes: [[START, input]], changed });
    if (wait) await wait;
    this.step++;
  }

  /**
   * Runs supersteps until nothing is triggered, a task pauses, or the step limit is reached. Steps whose
   * tasks, routers and observers are all synchronous run without awaiting; the loop yields to the event
   * loop every {@link yieldEvery} such steps so timers (and cancels) still get their turn.
   */
  async loop(): Promise<LoopResult> {
    const { run } = this;
    let syncSteps = 0;
    while (this.tasks.length > 0) {
      if (run.control.aborted) throw abortError(run.control.reason);
      if (this.stepsRun >= run.maxSteps) throw new StepLimitError(run.maxSteps);
      const before = this.checkBreakpoint('before');
      if (before) return this.pause(new Array(this.tasks.length), before);
      const started = run.observer.event ? Date.now() : 0;
      this.emitStepStart(started);
      const finishOrder = run.observer.updates ? [] : undefined;
      const ran = runStep(this.stepCall(started, finishOrder));
      const outputs = isPromiseLike(ran) ? await ran : ran;
      this.known = undefined;
      this.resumeUsed = this.resume;
      this.resume = undefined;
      this.memo = undefined;
      const interrupts = collectInterrupts(outputs);
      if (interrupts) {
        if (finishOrder) await this.streamFinished(outputs, finishOrder);
        return this.pause(outputs, interrupts);
      }
      const ranTasks = this.tasks;
      const done = this.complete(ranTasks, outputs, started);
      if (done) await done;
      else if (++syncSteps >= yieldEvery) {
        syncSteps = 0;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      const after = this.breakpoints?.after.size ? breakpointInterrupts(this, ranTasks, 'after') : undefined;
      if (after)
        return { status: 'interrupted', output: this.output(), interrupts: after, steps: this.stepsRun };
    }
    return { status: 'done', output: this.output(), interrupts: [], steps: this.stepsRun };
  }

  /** The run's result so far: the state, or what reached END. */
  output(): unknown {
    if (this.topology.state) return this.values;
    const entry = this.routing.inbox.get(END_INDEX);
    return entry ? mergeInbox(entry, undefined) : undefined;
  }

  private checkBreakpoint(kind: 'before'): PendingInterrupt[] | undefined {
    if (!this.breakpoints?.before.size) return undefined;
    if (this.skipBefore) {
      this.skipBefore = false;
      return undefined;
    }
    return breakpointInterrupts(this, this.tasks, kind);
  }

  /**
   * Ends the run at a pause. The output shows the state with the writes of the step's tasks that
   * finished (they are applied for good when the step completes on resume, and never run again).
   */
  private async pause(
    outputs: readonly unknown[],
    interrupts: readonly PendingInterrupt[],
  ): Promise<LoopResult> {
    await this.hooks.paused?.(this, outputs, interrupts);
    return { status: 'interrupted', output: this.pausedOutput(outputs), interrupts, steps: this.stepsRun };
  }

  /** The state with the writes of the finished tasks of a paused step (task order), as shown at the pause. */
  pausedOutput(outputs: readonly unknown[]): unknown {
    const { topology } = this;
    if (!topology.state) return this.output();
    const names: string[] = [];
    const done: unknown[] = [];
    this.tasks.forEach((task, i) => {
      if (!(i in outputs) || outputs[i] instanceof TaskPaused) return;
      names.push((topology.nodes[task.node] as CompiledNode).name);
      done.push(outputs[i]);
    });
    if (done.length === 0) return this.values;
    try {
      return applyStateWrites(topology.state, this.values, names, done).values;
    } catch {
      // A conflict among them is reported when the step completes; until then the state before it shows.
      return this.values;
    }
  }

  /** Streams the updates of a paused step's finished tasks, in the order they finished. */
  private async streamFinished(outputs: readonly unknown[], order: readonly number[]): Promise<void> {
    const { run, topology } = this;
    const updates = run.observer.updates as NonNullable<RunObserver['updates']>;
    for (const i of order) {
      const output = outputs[i];
      if (output instanceof TaskPaused) continue;
      const raw = isCommand(output) ? output.update : output;
      if (raw === undefined || raw === null) continue;
      const update = raw instanceof SubgraphWrites ? Object.fromEntries(raw.writes) : raw;
      const name = (topology.nodes[(this.tasks[i] as Task).node] as CompiledNode).name;
      const wait = updates(name, update, run.path);
      if (wait) await wait;
    }
  }

  private emitStepStart(started: number): void {
    const { run, topology, tasks, step } = this;
    if (!run.observer.event) return;
    const names = tasks.map((t) => (topology.nodes[t.node] as CompiledNode).name);
    run.observer.event({
      type: 'step-start',
      runId: run.runId,
      ts: started,
      path: run.path,
      step,
      tasks: names,
      ...ownerOf(run),
    });
  }

  /** Resume values the last step gave a task (saved with its pause so they are not asked again). */
  resumedFor(taskId: string): ResumeValues | undefined {
    return this.resumeUsed?.get(taskId);
  }

  /** Applies a finished step; returns a promise only when routing, an observer or a hook is asynchronous. */
  private complete(tasks: readonly Task[], outputs: unknown[], started: number): Promise<void> | undefined {
    const { finished, writes, changed } = this.apply(tasks, outputs);
    const streaming = this.run.observer.updates ? this.streamUpdates(writes) : undefined;
    if (streaming) return streaming.then(() => this.route(finished, writes, changed, started));
    return this.route(finished, writes, changed, started);
  }

  private route(
    finished: Finished[],
    writes: StepWrites,
    changed: readonly string[],
    started: number,
  ): Promise<void> | undefined {
    const planned = planNext(this.topology, finished, this.routing, this.routerInput, this.prefix());
    if (isPromiseLike(planned)) {
      return planned.then((tasks) => {
        this.tasks = tasks;
        return this.finishStep(writes, changed, started);
      });
    }
    this.tasks = planned;
    return this.finishStep(writes, changed, started);
  }

  private finishStep(
    writes: StepWrites,
    changed: readonly string[],
    started: number,
  ): Promise<void> | undefined {
    const { run, topology } = this;
    this.stepsRun++;
    if (run.observer.event) {
      const now = Date.now();
      run.observer.event({
        type: 'step-end',
        runId: run.runId,
        ts: now,
        path: run.path,
        step: this.step,
        durationMs: now - started,
        values: this.values,
      });
    }
    const shown =
      run.observer.values && topology.state
        ? run.observer.values(this.values, run.path)
        : run.observer.pace?.();
    const save = (): Promise<void> | undefined => {
      const saved = this.hooks.afterStep?.(this, { writes: writes.records, changed });
      if (saved) return saved.then(() => void this.step++);
      this.step++;
      return undefined;
    };
    return shown ? shown.then(save) : save();
  }

  private stepCall(startedAt: number, finishOrder: number[] | undefined): StepCall {
    const { resume, memo, known, hooks, tasks } = this;
    return {
      startedAt,
      finishOrder,
      run: this.run,
      topology: this.topology,
      tasks,
      step: this.step,
      values: this.values,
      known,
      resume: resume ? (task: Task) => resume.get(task.id) : undefined,
      memo: memo ? (task: Task) => memo.get(task.id) : undefined,
      onTaskDone:
        hooks.taskDone && (tasks.length > 1 || this.saveEveryTask)
          ? (i: number, output: unknown) => hooks.taskDone?.(this, tasks[i] as Task, output)
          : undefined,
      fail: this.run.abort,
    };
  }

  private readonly routerInput = (item: Finished): unknown =>
    this.topology.state ? this.values : item.output;

  private prefix(): string | number {
    return this.hooks.taskPrefix ? this.hooks.taskPrefix(this) : this.step + 1;
  }

  /** Applies a step's writes to the state (through the reducers) and collects what routing and hooks need. */
  private apply(
    tasks: readonly Task[],
    outputs: unknown[],
  ): { finished: Finished[]; writes: StepWrites; changed: readonly string[] } {
    const { topology, run } = this;
    const names = tasks.map((t) => (topology.nodes[t.node] as CompiledNode).name);
    const keep =
      this.hooks.afterStep !== undefined || run.observer.updates !== undefined || this.writes !== undefined;
    const writes: StepWrites = { records: [], streamed: [] };
    const finished: Finished[] = new Array(tasks.length);
    let changed: readonly string[] = [];
    if (topology.state) {
      const applied = this.applyState(names, outputs);
      this.values = applied.values;
      changed = applied.changed;
      this.bump(changed);
      for (let i = 0; i < tasks.length; i++) {
        finished[i] = {
          node: topology.nodes[(tasks[i] as Task).node],
          output: applied.updates[i],
          goto: applied.gotos[i],
        };
        if (!keep) continue;
        const output = outputs[i];
        const raw = isCommand(output) ? output.update : output;
        if (raw === undefined || raw === null) continue;
        writes.records.push([names[i] as string, raw]);
        writes.streamed.push([names[i] as string, applied.updates[i]]);
        if (this.writes) this.record(raw);
      }
    } else {
      for (let i = 0; i < tasks.length; i++) {
        const item = dataflowFinished(topology.nodes[(tasks[i] as Task).node] as CompiledNode, outputs[i]);
        finished[i] = item;
        if (keep) writes.records.push([names[i] as string, item.output]);
      }
      writes.streamed = writes.records;
    }
    return { finished, writes, changed };
  }

  /** Hands each node's write to the `updates` subscriber; a promise only when it asks the run to wait. */
  private streamUpdates(writes: StepWrites, from = 0): Promise<void> | undefined {
    const { run } = this;
    const updates = run.observer.updates as NonNullable<RunObserver['updates']>;
    const { streamed } = writes;
    for (let i = from; i < streamed.length; i++) {
      const [node, update] = streamed[i] as readonly [string, unknown];
      const wait = updates(node, update, run.path);
      if (wait) return wait.then(() => this.streamUpdates(writes, i + 1));
    }
    return undefined;
  }

  private record(raw: unknown): void {
    if (raw instanceof SubgraphWrites) this.writes?.push(...raw.writes);
    else for (const entry of Object.entries(raw as object)) this.writes?.push(entry);
  }

  /**
   * Applies a change from outside a run (time travel's `updateState`): first the outputs of tasks that
   * already finished in the paused step (when the change replaces the step), then `update` as if `as`
   * wrote it. With a node, the next tasks are routed from the finished tasks and that node; with `end`,
   * nothing runs next; otherwise the planned tasks stay.
   */
  async applyExternal(change: ExternalChange): Promise<StepRecord> {
    const { topology } = this;
    const name = change.as === 'end' ? END : (change.as?.name ?? START);
    const items: Array<{ node: CompiledNode | undefined; name: string; output: unknown }> = [
      ...change.finished,
    ];
    if (change.update !== undefined || change.as !== undefined)
      items.push({ node: change.as === 'end' ? undefined : change.as, name, output: change.update });
    const routed: Finished[] = [];
    const writes: Array<readonly [string, unknown]> = [];
    const changed = new Set<string>();
    // One application per item: the update lands on top of the finished writes, as a later step would.
    for (const item of items) {
      let finished: Finished = dataflowFinished(item.node, item.output);
      if (topology.state) {
        const applied = this.applyState([item.name], [item.output]);
        this.values = applied.values;
        for (const key of applied.changed) changed.add(key);
        finished = { node: item.node, output: applied.updates[0], goto: applied.gotos[0] };
      }
      routed.push(finished);
      const raw = isCommand(item.output) ? item.output.update : item.output;
      if (raw !== undefined && raw !== null) writes.push([item.name, raw]);
    }
    this.bump([...changed]);
    if (change.as === 'end') {
      this.tasks = [];
      this.routing = emptyRouting();
    } else if (change.as) {
      const planned = planNext(topology, routed, this.routing, this.routerInput, this.prefix());
      this.tasks = isPromiseLike(planned) ? await planned : planned;
    }
    return { writes, changed: [...changed] };
  }

  /** Applies writes to the state; a reducer that throws is reported with the checkpoint of this step. */
  private applyState(names: readonly string[], outputs: readonly unknown[]): AppliedStep {
    try {
      return applyStateWrites(this.topology.state as CompiledState, this.values, names, outputs);
    } catch (error) {
      throw atCheckpoint(error, this.checkpointId ?? this.run.durable?.currentId());
    }
  }

  /** Increments the version of each changed key. */
  bump(keys: readonly string[]): void {
    for (const key of keys) this.versions[key] = (this.versions[key] ?? 0) + 1;
  }
}

/** A change `updateState` makes (see {@link PregelLoop.applyExternal}). */
export interface ExternalChange {
  /** Tasks of the paused step that finished: their node, its name and their output. */
  readonly finished: ReadonlyArray<{
    readonly node: CompiledNode;
    readonly name: string;
    readonly output: unknown;
  }>;
  /** The values given, or `undefined` for none. */
  readonly update: unknown;
  /** The node the update is written as, `end` to finish the thread, or `undefined` to keep the tasks. */
  readonly as: CompiledNode | 'end' | undefined;
}

/** Steps that run synchronously in a row before the loop yields to the event loop. */
const yieldEvery = 1000;

/** A step's writes: per node (for hooks) and per node as streamed to `updates` subscribers. */
interface StepWrites {
  records: Array<readonly [string, unknown]>;
  streamed: Array<readonly [string, unknown]>;
}

function dataflowFinished(node: CompiledNode | undefined, output: unknown): Finished {
  if (isCommand(output))
    return { node, output: output.update, goto: output.goto.length > 0 ? output.goto : undefined };
  return { node, output, goto: undefined };
}

function collectInterrupts(outputs: readonly unknown[]): PendingInterrupt[] | undefined {
  let interrupts: PendingInterrupt[] | undefined;
  for (const output of outputs)
    if (output instanceof TaskPaused) (interrupts ??= []).push(...output.interrupts);
  return interrupts;
}

/** Where a nested graph's step runs: the enclosing task and the key of `runSubgraph` (none at the root). */
function ownerOf(run: RunContext): { parentTaskId?: string; key?: string } {
  const { owner } = run;
  if (!owner) return {};
  return owner.key === undefined
    ? { parentTaskId: owner.taskId }
    : { parentTaskId: owner.taskId, key: owner.key };
}
