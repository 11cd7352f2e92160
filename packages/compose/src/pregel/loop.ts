import { abortError } from '../errors/abort-error.js';
import { StepLimitError } from '../errors/step-limit-error.js';
import { isCommand } from '../graph/command.js';
import { START } from '../graph/constants.js';
import { isPromiseLike } from '../runnable/runnable.js';
import { applyStateWrites } from './apply.js';
import { emptyRouting, type Finished, mergeInbox, planNext, type RoutingState } from './plan.js';
import type { RunContext } from './run-context.js';
import { runStep } from './step.js';
import { SubgraphWrites } from './subgraph-writes.js';
import { type PendingInterrupt, type Task, TaskPaused } from './task.js';
import type { ResumeValues } from './task-context.js';
import { type CompiledNode, END_INDEX, type Topology } from './topology.js';

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
  /** After the input was applied (step -1) and after every completed step. */
  readonly afterStep?: (loop: PregelLoop, step: number, applied: StepRecord) => Promise<void> | undefined;
  /** A task of the current step finished (before the step completes). */
  readonly taskDone?: (loop: PregelLoop, task: Task, output: unknown) => Promise<void> | undefined;
  /** The step paused: finished outputs by task position, and the interrupts raised. */
  readonly paused?: (
    loop: PregelLoop,
    outputs: readonly unknown[],
    interrupts: readonly PendingInterrupt[],
  ) => Promise<void>;
}

/** What one completed step changed (input for checkpoints). */
export interface StepRecord {
  /** Node name (or START) and its write, per task in task order; paused tasks are absent. */
  readonly writes: ReadonlyArray<readonly [node: string, update: unknown]>;
  readonly changed: readonly string[];
}

/**
 * The superstep loop of one graph run: plan → execute → apply, until nothing is triggered.
 * Holds the run's mutable state; the pure parts live in `plan.ts` and `apply.ts`, task execution in
 * `step.ts`/`runner.ts`.
 */
export class PregelLoop {
  step = -1;
  stepsRun = 0;
  values: Record<string, unknown> = {};
  readonly versions: Record<string, number> = {};
  routing: RoutingState = emptyRouting();
  tasks: Task[] = [];
  /** Writes made by this graph's nodes, in order (kept for nested state graphs). */
  readonly writes: Array<readonly [string, unknown]> | undefined;
  /** Outputs of tasks that finished in a step that then paused (reused on resume). */
  known: Map<number, unknown> | undefined;
  /** Resume values by task id. */
  resume: ReadonlyMap<string, ResumeValues> | undefined;

  constructor(
    readonly topology: Topology,
    readonly run: RunContext,
    private readonly hooks: LoopHooks = {},
    recordWrites = false,
  ) {
    this.writes = recordWrites ? [] : undefined;
    if (topology.state) this.values = { ...topology.state.defaults };
  }

  /** Applies the run's input (as START's write) and plans the first step. */
  async begin(input: unknown): Promise<void> {
    const { topology } = this;
    if (topology.state) {
      const applied = applyStateWrites(topology.state, this.values, [START], [input]);
      this.values = applied.values;
      this.bump(applied.changed);
      const wait = this.run.observer.values?.(this.values, this.run.path);
      if (wait) await wait;
    }
    const planned = planNext(
      topology,
      [{ node: undefined, output: input, goto: undefined }],
      this.routing,
      this.routerInput,
      0,
    );
    this.tasks = isPromiseLike(planned) ? await planned : planned;
    this.step = -1;
    const wait = this.hooks.afterStep?.(this, -1, {
      writes: [[START, input]],
      changed: Object.keys(this.versions),
    });
    if (wait) await wait;
    this.step = 0;
  }

  /** Runs supersteps until nothing is triggered, a task pauses, or the step limit is reached. */
  async loop(): Promise<LoopResult> {
    const { run, topology } = this;
    while (this.tasks.length > 0) {
      if (run.signal.aborted) throw abortError(run.signal.reason);
      if (this.stepsRun >= run.maxSteps) throw new StepLimitError(run.maxSteps);
      const { tasks, step } = this;
      const started = run.observer.event ? Date.now() : 0;
      if (run.observer.event) {
        const names = tasks.map((t) => (topology.nodes[t.node] as CompiledNode).name);
        run.observer.event({
          type: 'step-start',
          runId: run.runId,
          ts: started,
          path: run.path,
          step,
          tasks: names,
        });
      }
      const ran = runStep(this.stepCall(tasks, step));
      const outputs = isPromiseLike(ran) ? await ran : ran;
      this.known = undefined;
      this.resume = undefined;
      const interrupts = collectInterrupts(outputs);
      if (interrupts) {
        await this.hooks.paused?.(this, outputs, interrupts);
        return { status: 'interrupted', output: this.output(), interrupts, steps: this.stepsRun };
      }
      const record = await this.apply(tasks, outputs);
      this.stepsRun++;
      if (run.observer.event) {
        const now = Date.now();
        run.observer.event({
          type: 'step-end',
          runId: run.runId,
          ts: now,
          path: run.path,
          step,
          durationMs: now - started,
          values: this.values,
        });
      }
      const wait =
        run.observer.values && topology.state ? run.observer.values(this.values, run.path) : undefined;
      if (wait) await wait;
      const saved = this.hooks.afterStep?.(this, step, record);
      if (saved) await saved;
      this.step = step + 1;
    }
    return { status: 'done', output: this.output(), interrupts: [], steps: this.stepsRun };
  }

  /** The run's result so far: the state, or what reached END. */
  output(): unknown {
    if (this.topology.state) return this.values;
    const entry = this.routing.inbox.get(END_INDEX);
    return entry ? mergeInbox(entry, undefined) : undefined;
  }

  private stepCall(tasks: readonly Task[], step: number) {
    const resume = this.resume;
    return {
      run: this.run,
      topology: this.topology,
      tasks,
      step,
      values: this.values,
      ...(this.known ? { known: this.known } : {}),
      ...(resume ? { resume: (task: Task) => resume.get(task.id) } : {}),
      ...(this.hooks.taskDone
        ? {
            onTaskDone: (i: number, output: unknown) => this.hooks.taskDone?.(this, tasks[i] as Task, output),
          }
        : {}),
      fail: this.run.abort,
    };
  }

  private readonly routerInput = (item: Finished): unknown =>
    this.topology.state ? this.values : item.output;

  private async apply(tasks: readonly Task[], outputs: unknown[]): Promise<StepRecord> {
    const { topology, run } = this;
    const names = tasks.map((t) => (topology.nodes[t.node] as CompiledNode).name);
    const writes: Array<readonly [string, unknown]> = [];
    let finished: Finished[];
    let changed: readonly string[] = [];
    if (topology.state) {
      const applied = applyStateWrites(topology.state, this.values, names, outputs);
      this.values = applied.values;
      changed = applied.changed;
      this.bump(changed);
      finished = tasks.map((t, i) => ({
        node: topology.nodes[t.node],
        output: applied.updates[i],
        goto: applied.gotos[i],
      }));
      for (let i = 0; i < names.length; i++) {
        const update = applied.updates[i];
        if (update === undefined || update === null) continue;
        writes.push([names[i] as string, update]);
        if (this.writes) this.record(outputs[i], update);
      }
    } else {
      finished = tasks.map((t, i) => dataflowFinished(topology.nodes[t.node] as CompiledNode, outputs[i]));
      for (let i = 0; i < names.length; i++) writes.push([names[i] as string, finished[i]?.output]);
    }
    if (run.observer.updates) {
      for (let i = 0; i < writes.length; i++) {
        const [node, update] = writes[i] as readonly [string, unknown];
        const wait = run.observer.updates(node, update, run.path);
        if (wait) await wait;
      }
    }
    const planned = planNext(topology, finished, this.routing, this.routerInput, this.step + 1);
    this.tasks = isPromiseLike(planned) ? await planned : planned;
    return { writes, changed };
  }

  private record(output: unknown, update: unknown): void {
    const inner = isCommand(output) ? output.update : output;
    if (inner instanceof SubgraphWrites) this.writes?.push(...inner.writes);
    else for (const entry of Object.entries(update as object)) this.writes?.push(entry);
  }

  private bump(keys: readonly string[]): void {
    for (const key of keys) this.versions[key] = (this.versions[key] ?? 0) + 1;
  }
}

function dataflowFinished(node: CompiledNode, output: unknown): Finished {
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
