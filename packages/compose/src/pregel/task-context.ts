import type { Draft } from 'immer';
import type { EffectInfo, EffectOptions } from '../effects/effect-types.js';
import { runEffect } from '../effects/run-effect.js';
import { WeftError } from '../errors/weft-error.js';
import type { NodeEvent, NodeEventInit } from '../events/node-events.js';
import { produceUpdate } from '../state/produce-update.js';
import type { Store } from '../store/store.js';
import { resolveCallOptions } from './call-options.js';
import type { NestableGraph, NodeContext, RunSubgraphOptions } from './node-context.js';
import { ParentCommand } from './parent-command.js';
import { reportNodeEvent } from './report-node-event.js';
import type { RunContext } from './run-context.js';
import type { RunControl } from './run-control.js';
import type { NodeCallOptions } from './run-options.js';
import { SubgraphPaused } from './subgraph-paused.js';
import type { PendingInterrupt } from './task.js';
import { TaskMemo } from './task-memo.js';
import { aloneList, type CompiledNode, type NestedRunParent } from './topology.js';

/** Thrown by `ctx.interrupt()` to pause a task; caught by the runner, never seen by users. */
export class InterruptSignal {
  constructor(
    readonly value: unknown,
    /**
     * Position of this `interrupt()` call within its node (0-based), or, inside a functional-API task
     * call, a position scoped by that call (see {@link TaskContext.interruptAt}).
     */
    readonly index: number | string,
  ) {}
}

/**
 * True for the signals that pause a task: what `ctx.interrupt()` throws and what `ctx.runSubgraph`
 * rejects with when the nested graph paused, or when one of its nodes sent `Command.PARENT` (the task
 * then ends with that command). Code that catches errors around them must rethrow them.
 *
 * @example
 * ```ts
 * async function guarded(run: () => Promise<string>): Promise<{ answer: string } | { failed: string }> {
 *   try {
 *     return { answer: await run() }; // e.g. () => ctx.runSubgraph(graph, input, { key: call.id })
 *   } catch (error) {
 *     if (isGraphPause(error)) throw error; // let the pause reach the runtime
 *     return { failed: String(error) };
 *   }
 * }
 * ```
 */
export function isGraphPause(value: unknown): boolean {
  return (
    value instanceof InterruptSignal || value instanceof SubgraphPaused || value instanceof ParentCommand
  );
}

/**
 * The error `ctx.interrupt()` throws in a run that does not checkpoint: such a pause could never be
 * resumed. It fails the run as it is (no retry, not wrapped in a `NodeError`).
 */
export function interruptNeedsCheckpointer(path: readonly string[]): WeftError {
  return new WeftError(
    'INTERRUPTED',
    `node "${path.join(' > ')}" called interrupt(), but the run has no checkpointer, so it could never be resumed; compile the graph with { checkpointer } and run it with { threadId }`,
  );
}

/** True for the error of {@link interruptNeedsCheckpointer}. */
export function isInterruptWithoutCheckpointer(error: unknown): boolean {
  return WeftError.isInstance(error) && error.code === 'INTERRUPTED';
}

/** Resume values for one task's `interrupt()` calls, by call position. */
export type ResumeValues = ReadonlyMap<number | string, unknown>;

/**
 * What a {@link TaskContext} is made from: the runner's task call (one object per task, so an attempt's
 * context costs no options object of its own). The task id is read through `task` only when something
 * asks for it, so a run nobody watches never builds the id text.
 */
export interface TaskContextInit {
  readonly run: RunContext;
  /** The node; `alone` is its frozen `[name]` (the tasks' path in a root run). */
  readonly node: { readonly name: string; alone: readonly string[] | undefined };
  readonly task: { readonly id: string };
  readonly step: number;
  readonly resume: ResumeValues | undefined;
  /** `ctx.once` results restored from this task's pause. */
  readonly memo?: ReadonlyMap<string, unknown> | undefined;
}

/**
 * What an attempt's context keeps once its node uses it: most nodes never interrupt, remember, run a
 * subgraph or read their path inside a subgraph, and a map step makes one context per task.
 */
interface AttemptState {
  interrupts: number;
  path: readonly string[] | undefined;
  /** Interrupts of nested runs started with `runSubgraph` that paused in this attempt. */
  nestedPauses: PendingInterrupt[] | undefined;
  memo: TaskMemo | undefined;
}

/** The `ctx` object a node receives. One per task attempt: three fields, the rest made on first use. */
export class TaskContext implements NodeContext {
  readonly #init: TaskContextInit;
  #state: AttemptState | undefined;

  /**
   * @param init The task this context belongs to (the runner passes its task call).
   * @param attempt The attempt number, from 1.
   * @param ownSignal The attempt's own signal (a timeout's), when it has one; else the run's is used.
   */
  constructor(
    init: TaskContextInit,
    readonly attempt: number,
    private readonly ownSignal?: AbortSignal | undefined,
  ) {
    this.#init = init;
  }

  private get run(): RunContext {
    return this.#init.run;
  }

  private state(): AttemptState {
    this.#state ??= { interrupts: 0, path: undefined, nestedPauses: undefined, memo: undefined };
    return this.#state;
  }

  get step(): number {
    return this.#init.step;
  }

  get node(): string {
    return this.#init.node.name;
  }

  get taskId(): string {
    return this.#init.task.id;
  }

  private get resume(): ResumeValues | undefined {
    return this.#init.resume;
  }

  private get restoredMemo(): ReadonlyMap<string, unknown> | undefined {
    return this.#init.memo;
  }

  once<T>(key: string, fn: () => T | Promise<T>): Promise<T> {
    const state = this.state();
    state.memo ??= new TaskMemo(this.restoredMemo);
    return state.memo.once(key, fn);
  }

  effect<T>(
    name: string,
    fn: (effect: EffectInfo) => T | Promise<T>,
    options?: EffectOptions,
  ): Promise<Awaited<T>> {
    return runEffect({ run: this.run, task: this, scope: '', counter: this }, name, fn, options);
  }

  /** What this attempt's `once` calls remember (restored ones included), for its pause to save. */
  memoEntries(): ReadonlyArray<readonly [string, unknown]> {
    const memo = this.#state?.memo;
    if (memo) return memo.entries();
    return this.restoredMemo ? [...this.restoredMemo] : [];
  }

  /** The attempt's signal: the run's (created on first use) or, with a timeout, one that also fires on it. */
  get signal(): AbortSignal {
    return this.ownSignal ?? this.run.control.signal;
  }

  /**
   * What aborts this attempt, for a nested run to follow: its own signal (a timeout's), else the run's
   * control itself, so a subgraph call creates no `AbortSignal` and adds no event listener.
   */
  get abortSource(): AbortSignal | RunControl {
    return this.ownSignal ?? this.run.control;
  }

  get path(): readonly string[] {
    const { path } = this.run;
    // A root run's tasks share their node's frozen `[name]`: nothing to keep per attempt.
    if (path.length === 0) return aloneList(this.#init.node);
    const state = this.state();
    state.path ??= [...path, this.node];
    return state.path;
  }

  get runId(): string {
    return this.run.runId;
  }

  get threadId(): string | undefined {
    return this.run.threadId;
  }

  get config(): Readonly<Record<string, unknown>> {
    return this.run.config;
  }

  get store(): Store | undefined {
    return this.run.store;
  }

  get options(): NodeCallOptions | undefined {
    // Looked up when read (no field on the context), so a node that never reads its options, or a run
    // without any, pays nothing.
    const routing = this.run.callOptions;
    return routing ? resolveCallOptions(routing, this.path, this.kind()) : undefined;
  }

  get localState(): unknown {
    return this.run.localState;
  }

  private kind(): string | undefined {
    // `run.nodes` is the topology's `byName` map of the graph this task belongs to (see RunContext).
    return (this.run.nodes?.get(this.node) as CompiledNode | undefined)?.options.kind;
  }

  emit(data: unknown): void {
    const { observer } = this.run;
    observer.custom?.(this.node, data, this.run.path);
    observer.event?.({
      type: 'custom',
      runId: this.run.runId,
      ts: Date.now(),
      path: this.path,
      step: this.step,
      node: this.node,
      taskId: this.taskId,
      data,
    });
  }

  get streaming(): boolean {
    const { observer } = this.run;
    return observer.chunk !== undefined || observer.event !== undefined;
  }

  chunk(
    chunk: unknown,
    options: { readonly agent?: string; readonly branch?: string } = {},
  ): Promise<void> | undefined {
    const { observer } = this.run;
    const { agent, branch } = options;
    observer.event?.({
      type: 'chunk',
      runId: this.run.runId,
      ts: Date.now(),
      path: this.path,
      step: this.step,
      node: this.node,
      taskId: this.taskId,
      chunk,
      ...(agent === undefined ? {} : { agent }),
      ...(branch === undefined ? {} : { branch }),
    });
    return observer.chunk?.(this.node, chunk, this.run.path, agent) ?? observer.pace?.();
  }

  report(event: NodeEventInit): Promise<void> | undefined {
    const { observer } = this.run;
    if (!observer.event) return undefined;
    // `Object.assign` onto a new object, not a spread: a spread's copy plus these fields got a new hidden
    // class per event once optimized (ADR 025, fifth pass). The fields added are the ones every node
    // event has, so the result is the init's member of the event union.
    const where = {
      runId: this.run.runId,
      ts: Date.now(),
      path: this.path,
      step: this.step,
      node: this.node,
      taskId: this.taskId,
    };
    return reportNodeEvent(this.run, Object.assign({}, event, where) as NodeEvent);
  }

  produce<TState extends object>(state: TState, recipe: (draft: Draft<TState>) => void): Partial<TState> {
    return produceUpdate(state, recipe, { node: this.node, reducers: this.run.state?.reducers ?? {} });
  }

  interrupt<TResume = unknown>(value: unknown): TResume {
    return this.interruptAt(this.state().interrupts++, value, this.path);
  }

  /**
   * @internal An `interrupt()` at a position the caller chose: the functional API gives each task call
   * its own positions (`t<call>-<n>`), so calls running in parallel never take each other's answers.
   */
  interruptAt<TResume>(index: number | string, value: unknown, path: readonly string[]): TResume {
    if (this.resume?.has(index)) return this.resume.get(index) as TResume;
    if (!this.run.durable) throw interruptNeedsCheckpointer(path);
    throw new InterruptSignal(value, index);
  }

  /** @internal The run this task belongs to (the functional API runs task calls against it). */
  get runContext(): RunContext {
    return this.run;
  }

  async runSubgraph<TOutput>(
    graph: NestableGraph<TOutput>,
    input: unknown,
    options: RunSubgraphOptions,
  ): Promise<TOutput> {
    const signal = options.signal ? AbortSignal.any([this.signal, options.signal]) : this.abortSource;
    try {
      const parent = { run: this.run, ctx: this, signal, key: options.key };
      const nested: NestedRunParent = options.config ? { ...parent, config: options.config } : parent;
      // NodeContext erases the parent's type (node-context.ts stays below graph-spec.ts); every
      // NestableGraph is a compiled graph, whose runNested takes a NestedRunParent.
      return (await graph.runNested(input, nested as never)) as TOutput;
    } catch (thrown) {
      if (!(thrown instanceof SubgraphPaused)) throw thrown;
      const state = this.state();
      state.nestedPauses = [...(state.nestedPauses ?? []), ...thrown.interrupts];
      throw new SubgraphPaused(state.nestedPauses);
    }
  }
}
