import { abortError } from '../errors/abort-error.js';
import { StepLimitError } from '../errors/step-limit-error.js';
import { isPromiseLike } from '../runnable/runnable.js';
import { atCheckpoint } from '../state/reduce-key.js';
import { START } from '../vocabulary/constants.js';
import { type AppliedStep, applyStateWrites, type NodeNames } from './apply.js';
import { type Breakpoints, breakpointInterrupts } from './breakpoints.js';
import type { CompiledState } from './compiled-state.js';
import { completeStep } from './complete-step.js';
import type { LoopHooks, LoopRestore, LoopResult, LoopSnapshot, LoopView } from './loop-hooks.js';
import { collectInterrupts, pausedOutput, showUpdate } from './paused-step.js';
import { emptyRouting, type Finished, mergeInbox, planNext, type RoutingState } from './plan.js';
import type { RunContext } from './run-context.js';
import { runStep } from './step.js';
import type { StepCall } from './step-call.js';
import { emitStepStart } from './step-start.js';
import type { PendingInterrupt, Task } from './task.js';
import type { ResumeValues } from './task-context.js';
import { END_INDEX, type Topology } from './topology.js';

/** How a loop is set up (besides its topology and run). */
export interface PregelLoopOptions {
  /** Durability and other observers of its steps (checkpoint/'s session). */
  readonly hooks?: LoopHooks | undefined;
  /** Keep the writes of this graph's nodes, in order (nested state graphs). */
  readonly recordWrites?: boolean | undefined;
  /** Static breakpoints by node index. */
  readonly breakpoints?: Breakpoints | undefined;
  /** Store every finished task's writes, not only those of steps with several tasks. */
  readonly saveEveryTask?: boolean | undefined;
}

/**
 * The superstep loop of one graph run: plan → execute → apply, until nothing is triggered.
 * Holds the run's mutable state, private: hooks and `checkpoint/` read it through {@link LoopView}, persist
 * it with `snapshot()` and set it with `restore()`. The pure parts live in `plan.ts` and `apply.ts`, task
 * execution in `step.ts`/`runner.ts`, completing a step in `complete-step.ts`, pauses in `paused-step.ts`,
 * changes from outside a run in `external-change.ts`, durability in the hooks.
 */
export class PregelLoop implements LoopView {
  readonly hooks: LoopHooks;
  readonly writes: Array<readonly [string, unknown]> | undefined;
  #step = -1;
  #stepsRun = 0;
  /** When the last step ended, as its `step-end` event says (see `stepDone`). */
  #endedAt = 0;
  #values: Record<string, unknown> = {};
  #routing: RoutingState = emptyRouting();
  #tasks: readonly Task[] = [];
  #known: Map<number, unknown> | undefined;
  #resume: ReadonlyMap<string, ResumeValues> | undefined;
  #memo: ReadonlyMap<string, ReadonlyMap<string, unknown>> | undefined;
  #resumeUsed: ReadonlyMap<string, ResumeValues> | undefined;
  readonly #breakpoints: Breakpoints | undefined;
  /** A resumed step passes its before-breakpoint once. */
  #skipBefore = false;
  readonly #saveEveryTask: boolean;
  /** The checkpoint this loop continues from, when it is not a durable run's (`updateState`). */
  #checkpointId: string | undefined;
  /** The running step's stream-branch decisions by task position (graphs with stream branches). */
  #decisions: Array<ReadonlyArray<Promise<unknown> | undefined> | undefined> | undefined;

  constructor(
    readonly topology: Topology,
    readonly run: RunContext,
    options: PregelLoopOptions = {},
  ) {
    this.hooks = options.hooks ?? {};
    this.writes = options.recordWrites ? [] : undefined;
    this.#breakpoints = options.breakpoints;
    this.#saveEveryTask = options.saveEveryTask ?? false;
    if (topology.state) this.#values = Object.assign({}, topology.state.defaults);
  }

  get step(): number {
    return this.#step;
  }

  get values(): Record<string, unknown> {
    return this.#values;
  }

  get tasks(): readonly Task[] {
    return this.#tasks;
  }

  get routing(): RoutingState {
    return this.#routing;
  }

  get known(): ReadonlyMap<number, unknown> | undefined {
    return this.#known;
  }

  /** The state a checkpoint persists. */
  snapshot(): LoopSnapshot {
    return { step: this.#step, values: this.#values, routing: this.#routing, tasks: this.#tasks };
  }

  planned(tasks: readonly Task[]): void {
    this.#tasks = tasks;
  }

  stepDone(endedAt: number): void {
    this.#step++;
    this.#endedAt = endedAt;
  }

  /** Sets the given parts of the loop's state (a checkpoint's, a continued step's); the rest stays. */
  restore(state: LoopRestore): void {
    if (state.step !== undefined) this.#step = state.step;
    if (state.values !== undefined) this.#values = state.values;
    if (state.routing !== undefined) this.#routing = state.routing;
    if (state.tasks !== undefined) this.#tasks = state.tasks;
    if ('known' in state) this.#known = state.known;
    if ('resume' in state) this.#resume = state.resume;
    if ('memo' in state) this.#memo = state.memo;
    if (state.skipBefore !== undefined) this.#skipBefore = state.skipBefore;
    if ('checkpointId' in state) this.#checkpointId = state.checkpointId;
  }

  /** Applies the run's input (as START's write) at the current step and plans the next one. */
  async begin(input: unknown): Promise<void> {
    const { topology } = this;
    let changed: readonly string[] = [];
    if (topology.state) {
      changed = this.applyState([START], [input]).changed;
      const wait = this.run.observer.values?.(this.#values, this.run.path);
      if (wait) await wait;
    }
    const start: Finished = { node: undefined, output: input, goto: undefined };
    const planned = planNext(
      { topology, routing: this.#routing, routerInput: this.routerInput, step: this.prefix() },
      [start],
    );
    this.#tasks = isPromiseLike(planned) ? await planned : planned;
    const wait = this.hooks.afterStep?.(this, { writes: [[START, input]], changed });
    if (wait) await wait;
    this.#step++;
  }

  /**
   * Runs supersteps until nothing is triggered, a task pauses, or the step limit is reached. Steps whose
   * tasks, routers and observers are all synchronous run without awaiting; the loop yields to the event
   * loop every {@link yieldEvery} such steps so timers (and cancels) still get their turn.
   */
  async loop(): Promise<LoopResult> {
    const { run } = this;
    let syncSteps = 0;
    // The last step's end time, while nothing has been awaited since it was read: the next step starts
    // at that time (one clock read per step fewer with events on; `Date.now()` has 1 ms resolution and
    // only synchronous engine work lies between the two).
    let endedAt = 0;
    while (this.#tasks.length > 0) {
      if (run.control.aborted) throw abortError(run.control.reason);
      if (this.#stepsRun >= run.maxSteps) throw new StepLimitError(run.maxSteps);
      const before = this.checkBreakpoint();
      if (before) return this.pause(new Array(this.#tasks.length), before);
      const started = run.observer.event ? endedAt || Date.now() : 0;
      endedAt = 0;
      emitStepStart(this, started);
      const ran = runStep(this.stepCall(started));
      const ranSync = !isPromiseLike(ran);
      const outputs = ranSync ? ran : await ran;
      this.#known = undefined;
      this.#resumeUsed = this.#resume;
      this.#resume = undefined;
      this.#memo = undefined;
      const interrupts = collectInterrupts(outputs);
      if (interrupts) return this.pause(outputs, interrupts);
      const ranTasks = this.#tasks;
      const done = completeStep(this, outputs, started, ranSync);
      this.#stepsRun++;
      if (done) await done;
      else if (++syncSteps >= yieldEvery) {
        syncSteps = 0;
        await new Promise<void>((resolve) => setImmediate(resolve));
      } else endedAt = this.#endedAt;
      const nodes = this.#breakpoints?.after;
      const after = nodes?.size ? breakpointInterrupts(this, ranTasks, { kind: 'after', nodes }) : undefined;
      if (after)
        return { status: 'interrupted', output: this.output(), interrupts: after, steps: this.#stepsRun };
    }
    return { status: 'done', output: this.output(), interrupts: [], steps: this.#stepsRun };
  }

  /** The run's result so far: the state, or what reached END. */
  output(): unknown {
    if (this.topology.state) return this.#values;
    const entry = this.#routing.inbox.get(END_INDEX);
    return entry ? mergeInbox(entry, undefined) : undefined;
  }

  /** Takes the running step's stream-branch decisions by task position (ADR 022), if any. */
  takeDecisions(): ReadonlyArray<ReadonlyArray<Promise<unknown> | undefined> | undefined> | undefined {
    const decisions = this.#decisions;
    this.#decisions = undefined;
    return decisions;
  }

  /** Resume values the last step gave a task (saved with its pause so they are not asked again). */
  resumedFor(taskId: string): ResumeValues | undefined {
    return this.#resumeUsed?.get(taskId);
  }

  /** What routers read: the state (state graphs) or the finished task's output (dataflow graphs). */
  readonly routerInput = (item: Finished): unknown => (this.topology.state ? this.#values : item.output);

  /** The prefix of the ids of the tasks planned next. */
  prefix(): string | number {
    return this.hooks.taskPrefix ? this.hooks.taskPrefix(this) : this.#step + 1;
  }

  /**
   * Applies writes to the state and keeps the new values; a reducer that throws is reported with the
   * checkpoint of this step.
   */
  applyState(names: NodeNames, outputs: readonly unknown[]): AppliedStep {
    let applied: AppliedStep;
    try {
      applied = applyStateWrites(this.topology.state as CompiledState, this.#values, names, outputs);
    } catch (error) {
      throw atCheckpoint(error, this.#checkpointId ?? this.run.durable?.currentId());
    }
    this.#values = applied.values;
    return applied;
  }

  private checkBreakpoint(): PendingInterrupt[] | undefined {
    const nodes = this.#breakpoints?.before;
    if (!nodes?.size) return undefined;
    if (this.#skipBefore) {
      this.#skipBefore = false;
      return undefined;
    }
    return breakpointInterrupts(this, this.#tasks, { kind: 'before', nodes });
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
    const output = pausedOutput(this, outputs);
    // As the reference engine does, the root's `values` stream shows the state with the finished tasks'
    // writes before the pause (only when one of them wrote something).
    const { run } = this;
    if (run.observer.values && output !== this.#values && run.path.length === 0) {
      const wait = run.observer.values(output, run.path);
      if (wait) await wait;
    }
    return { status: 'interrupted', output, interrupts, steps: this.#stepsRun };
  }

  private stepCall(startedAt: number): StepCall {
    const { hooks } = this;
    const resume = this.#resume;
    const memo = this.#memo;
    const tasks = this.#tasks;
    return {
      startedAt,
      showTask: this.run.observer.updates ? this.#showTask : undefined,
      run: this.run,
      topology: this.topology,
      tasks,
      step: this.#step,
      values: this.#values,
      known: this.#known,
      resume: resume ? (task: Task) => resume.get(task.id) : undefined,
      memo: memo ? (task: Task) => memo.get(task.id) : undefined,
      onTaskDone: hooks.taskDone && (tasks.length > 1 || this.#saveEveryTask) ? this.#taskDone : undefined,
      fail: this.run.abort,
      decisions: this.topology.hasStreamBranches ? (this.#decisions = []) : undefined,
      onTaskFailed: hooks.taskFailed ? this.#taskFailed : undefined,
    };
  }

  // Made once per loop, not per step: a step's tasks are `#tasks` until the step completes and plans.
  readonly #showTask = (i: number, output: unknown): Promise<void> | undefined =>
    showUpdate(this, this.#tasks[i] as Task, output);
  readonly #taskDone = (i: number, output: unknown): Promise<void> | undefined =>
    this.hooks.taskDone?.(this, this.#tasks[i] as Task, output);
  readonly #taskFailed = (i: number, error: unknown): void =>
    this.hooks.taskFailed?.(this, this.#tasks[i] as Task, error);
}

/** Steps that run synchronously in a row before the loop yields to the event loop. */
const yieldEvery = 1000;
