import type { Draft } from 'immer';
import type { EffectInfo, EffectOptions } from '../effects/effect-types.js';
import { runEffect } from '../effects/run-effect.js';
import type { NodeEvent, NodeEventInit } from '../events/node-events.js';
import type { CompiledGraph } from '../graph/compiled-graph.js';
import type { NodeContext, RunSubgraphOptions } from '../pregel/node-context.js';
import { reportNodeEvent } from '../pregel/report-node-event.js';
import type { Store } from '../store/store.js';
import type { CallScope, EntryRun } from './call-scope.js';

/**
 * What code inside a task call sees as its context (`getContext()` there): the entrypoint's run, with
 * the task as its node — custom values, chunks and node events are tagged with the task's name and path,
 * and `interrupt()` pauses at positions of this call, so parallel calls never take each other's answers.
 */
export class CallContext implements NodeContext {
  readonly path: readonly string[];
  /** Set once the scope that owns this context exists (they refer to each other). */
  scope: CallScope | undefined;

  constructor(
    private readonly entry: EntryRun,
    /** The task's name. */
    readonly node: string,
    /** The call's key within the entry task. */
    private readonly key: string,
    readonly attempt: number,
  ) {
    this.path = [...entry.ctx.path, node];
  }

  get taskId(): string {
    return `${this.entry.ctx.taskId}/${this.key}`;
  }

  get signal(): AbortSignal {
    return this.entry.ctx.signal;
  }

  get step(): number {
    return this.entry.ctx.step;
  }

  get runId(): string {
    return this.entry.ctx.runId;
  }

  get threadId(): string | undefined {
    return this.entry.ctx.threadId;
  }

  get config(): Readonly<Record<string, unknown>> {
    return this.entry.ctx.config;
  }

  get store(): Store | undefined {
    return this.entry.ctx.store;
  }

  get streaming(): boolean {
    return this.entry.ctx.streaming;
  }

  /** The call options routed to the entrypoint's node (a task has no options of its own). */
  get options(): Readonly<Record<string, unknown>> | undefined {
    return this.entry.ctx.options;
  }

  get localState(): unknown {
    return this.entry.ctx.localState;
  }

  emit(data: unknown): void {
    const { observer, path, runId } = this.entry.run;
    observer.custom?.(this.node, data, path);
    observer.event?.({ type: 'custom', runId, ts: Date.now(), ...this.#where(), data });
  }

  chunk(
    chunk: unknown,
    options: { readonly agent?: string; readonly branch?: string } = {},
  ): Promise<void> | undefined {
    const { observer, path, runId } = this.entry.run;
    const { agent, branch } = options;
    observer.event?.({
      type: 'chunk',
      runId,
      ts: Date.now(),
      ...this.#where(),
      chunk,
      ...(agent === undefined ? {} : { agent }),
      ...(branch === undefined ? {} : { branch }),
    });
    return observer.chunk?.(this.node, chunk, path, agent) ?? observer.pace?.();
  }

  report(event: NodeEventInit): Promise<void> | undefined {
    const { observer, runId } = this.entry.run;
    if (!observer.event) return undefined;
    // As in TaskContext.report: the fields added are the ones every node event has, assigned (not
    // spread) onto a new object so every reported event of a kind keeps one hidden class.
    const stamp = { runId, ts: Date.now() };
    return reportNodeEvent(this.entry.run, Object.assign({}, event, stamp, this.#where()) as NodeEvent);
  }

  interrupt<TResume = unknown>(value: unknown): TResume {
    const scope = this.scope as CallScope;
    return this.entry.ctx.interruptAt<TResume>(`t${this.key}-${scope.interrupts++}`, value, this.path);
  }

  produce<TState extends object>(state: TState, recipe: (draft: Draft<TState>) => void): Partial<TState> {
    return this.entry.ctx.produce(state, recipe);
  }

  runSubgraph<TOutput>(
    graph: CompiledGraph<never, TOutput, string, unknown>,
    input: unknown,
    options: RunSubgraphOptions,
  ): Promise<TOutput> {
    return this.entry.ctx.runSubgraph(graph, input, { ...options, key: `t${this.key}.${options.key}` });
  }

  once<T>(key: string, fn: () => T | Promise<T>): Promise<T> {
    return this.entry.ctx.once(`t${this.key}.${key}`, fn);
  }

  effect<T>(
    name: string,
    fn: (effect: EffectInfo) => T | Promise<T>,
    options?: EffectOptions,
  ): Promise<Awaited<T>> {
    const { ctx, run } = this.entry;
    return runEffect({ run, task: ctx, scope: `t${this.key}.`, counter: this }, name, fn, options);
  }

  #where() {
    return { path: this.path, step: this.step, node: this.node, taskId: this.taskId };
  }
}
