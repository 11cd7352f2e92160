import { abortError } from '../errors/abort-error.js';
import { WeftError } from '../errors/weft-error.js';
import { isPromiseLike } from '../runnable/runnable.js';
import { writerOf } from '../stream/stream-fan-out.js';
import { StreamPipe } from '../stream/stream-pipe.js';
import { StreamedInput } from '../stream/streamed-input.js';
import { isCommand } from '../vocabulary/command.js';
import { START } from '../vocabulary/constants.js';
import { applyStateWrites } from './apply.js';
import { DagConflicts } from './dag-conflicts.js';
import { type DagPlan, START_INDEX } from './dag-plan.js';
import { addRouted } from './dag-route.js';
import type { LoopResult } from './loop-hooks.js';
import { ParentCommand } from './parent-command.js';
import { mergeInbox } from './plan.js';
import type { RunContext } from './run-context.js';
import { executeTask } from './runner.js';
import { checkConcurrency } from './step.js';
import { SubgraphWrites } from './subgraph-writes.js';
import { TaskPaused } from './task.js';
import type { ResumeValues } from './task-context.js';
import type { CompiledNode, Topology } from './topology.js';

/**
 * What a checkpointed DAG run gives its loop (see `dag-durable-run.ts`): outputs of nodes that finished
 * before (replayed, not run again), resume values of paused nodes, stable task ids, and a hook called as
 * each node finishes. Without it the loop runs as before and `interrupt()` is an error.
 */
export interface DagDurability {
  /** Outputs of nodes that already finished, by node index: routed again, never executed again. */
  readonly done: ReadonlyMap<number, unknown>;
  /** Resume values for nodes that paused, by node index. */
  readonly resume: ReadonlyMap<number, ResumeValues>;
  /** What paused nodes' `ctx.once` calls remembered, by node index. */
  readonly memo: ReadonlyMap<number, ReadonlyMap<string, unknown>>;
  /** The task id of a node (stable across a pause, so a paused subgraph continues). */
  readonly taskId: (index: number) => string;
  /** Called when a node finished executing (not for replayed ones), before its successors start. */
  readonly nodeDone: (index: number, output: unknown) => void;
  /** Called when a node failed first, before the run aborts (to put the failure on record). */
  readonly nodeFailed?: ((index: number, error: unknown) => void) | undefined;
}

const PENDING = 0;
/** Started before its predecessor finished: it reads that predecessor's stream (ADR 022). */
const STREAMING = 1;
const DONE = 2;
const SKIPPED = 3;

/**
 * DAG mode: a node runs as soon as all its predecessors finished or were skipped (eagerly, without
 * waiting for a superstep boundary); a node none of whose predecessors activated it is skipped, and
 * skips cascade. A state-graph node sees the input plus the writes of its ancestors applied in
 * topological order, so results never depend on which branch finishes first.
 */
export class DagLoop {
  private readonly remaining: Int32Array;
  private readonly activated: Uint8Array;
  private readonly status: Uint8Array;
  private readonly writes: unknown[];
  private readonly post = new Map<number, Record<string, unknown>>();
  private readonly inbox = new Map<number, Arrival[]>();
  private readonly ready: number[] = [];
  private readonly completed: Array<[number, unknown]> = [];
  private startValues: Record<string, unknown> = {};
  private running = 0;
  private wake: (() => void) | undefined;
  private failure: { error: unknown } | undefined;
  private readonly conflicts: DagConflicts;
  /** Durable runs: nodes that paused, and ready nodes not started because the run is pausing. */
  private readonly pausedNodes: Array<[number, TaskPaused]> = [];
  private readonly held: number[] = [];
  private replayed: Uint8Array | undefined;
  /** Nodes executed (not replayed) by this loop. */
  executed = 0;

  constructor(
    private readonly topology: Topology,
    private readonly plan: DagPlan,
    private readonly run: RunContext,
    private readonly durable?: DagDurability,
  ) {
    const count = topology.nodes.length;
    this.remaining = Int32Array.from(plan.predecessors, (p) => p.length);
    this.activated = new Uint8Array(count);
    this.status = new Uint8Array(count);
    this.writes = new Array(count);
    this.conflicts = new DagConflicts(topology, plan.predecessors);
    if (durable) this.replayed = new Uint8Array(count);
  }

  /**
   * Runs the whole DAG from `input`; `startValues` (state graphs) is the state with the input already
   * applied, when the run continues a thread.
   */
  async execute(input: unknown, startValues?: Record<string, unknown>): Promise<LoopResult> {
    const { topology } = this;
    if (topology.state) {
      this.startValues =
        startValues ??
        applyStateWrites(topology.state, { ...topology.state.defaults }, [START], [input]).values;
      this.post.set(START_INDEX, this.startValues);
    }
    // Routers on START see the state (with schema defaults), as in Pregel mode.
    this.route(START_INDEX, undefined, topology.state ? this.startValues : input, input);
    const { control, concurrency } = this.run;
    checkConcurrency(concurrency);
    // An abort must wake the loop even while running nodes ignore their signal.
    const stopListening = control.onAbort(() => this.wake?.());
    let steps = 0;
    try {
      for (;;) {
        if (this.failure) throw this.failure.error;
        if (control.aborted) throw abortError(control.reason);
        if (this.ready.length > 0 && (this.running < concurrency || this.pausedNodes.length > 0)) {
          // One at a time, so a node failing synchronously stops the others from starting.
          this.start(this.ready.shift() as number);
          continue;
        }
        if (this.completed.length > 0) {
          const [index, output] = this.completed.shift() as [number, unknown];
          await this.finish(index, output);
          steps++;
          continue;
        }
        if (this.running === 0) break;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
      }
    } finally {
      stopListening();
    }
    if (this.pausedNodes.length > 0) {
      const interrupts = this.pausedNodes.flatMap(([, paused]) => paused.interrupts);
      return { status: 'interrupted', output: this.output(), interrupts, steps };
    }
    return { status: 'done', output: this.output(), interrupts: [], steps };
  }

  private start(index: number): void {
    const { durable } = this;
    if (durable) {
      if (durable.done.has(index)) {
        (this.replayed as Uint8Array)[index] = 1;
        this.completed.push([index, durable.done.get(index)]);
        return;
      }
      // A pausing run starts nothing new: the node is recorded as next and runs on resume.
      if (this.pausedNodes.length > 0) {
        this.held.push(index);
        return;
      }
    }
    const input = this.topology.state ? this.viewOf(index) : this.inputOf(index);
    // The graph's own stream input flows into the nodes START feeds (ADR 022).
    const source =
      this.topology.streamStart !== undefined && input instanceof StreamedInput
        ? input.open(this.run.control)
        : undefined;
    this.launch(index, { input: source ? source.reader : input, source });
  }

  /**
   * Executes node `index`. With `source` it reads that stream (`input` is its reader). When it pipes into
   * successors (ADR 022), they start now too, each reading its own copy of its chunks as they come,
   * unless one already finished in a run this one continues (it is replayed then, with the whole output).
   */
  private launch(
    index: number,
    call: {
      readonly input: unknown;
      readonly source?: StreamPipe | undefined;
      readonly streamFrom?: string | undefined;
    },
  ): void {
    const { durable } = this;
    const node = this.topology.nodes[index] as CompiledNode;
    const step = this.plan.generation[index] as number;
    const taskId = durable ? durable.taskId(index) : `${step}:${node.name}:0`;
    const readers = node.pipes?.filter((reader) => !durable?.done.has(reader));
    const pipes = readers?.length ? readers.map(() => new StreamPipe(this.run.control)) : undefined;
    let result: unknown;
    try {
      result = executeTask({
        run: this.run,
        node,
        input: call.input,
        step,
        task: { id: taskId },
        resume: durable?.resume.get(index),
        memo: durable?.memo.get(index),
        source: call.source,
        streamFrom: call.streamFrom,
        pipe: pipes && writerOf(pipes),
      });
    } catch (error) {
      this.failed(index, error);
      return;
    }
    const { source } = call;
    // A reader's task ended: its producer goes on alone (never blocked by what nobody reads).
    if (source) result = Promise.resolve(result).finally(() => source.detach());
    if (readers && pipes) {
      readers.forEach((reader, r) => {
        const pipe = pipes[r] as StreamPipe;
        this.status[reader] = STREAMING;
        this.launch(reader, { input: pipe.reader, source: pipe, streamFrom: taskId });
      });
    }
    if (!isPromiseLike(result)) {
      this.completed.push([index, result]);
      return;
    }
    this.running++;
    result.then(
      (output) => {
        this.running--;
        this.completed.push([index, output]);
        this.wake?.();
      },
      (error: unknown) => {
        this.running--;
        this.failed(index, error);
      },
    );
  }

  /** Node `index` failed: the first failure of the run is put on record, then the run aborts. */
  private failed(index: number, error: unknown): void {
    if (!this.run.control.aborted && !(error instanceof ParentCommand))
      this.durable?.nodeFailed?.(index, error);
    this.fail(error);
  }

  private fail(error: unknown): void {
    this.failure ??= { error };
    this.run.abort(error);
    this.wake?.();
  }

  private async finish(index: number, output: unknown): Promise<void> {
    const node = this.topology.nodes[index] as CompiledNode;
    const replayed = this.replayed?.[index] === 1;
    if (output instanceof TaskPaused && this.durable) {
      this.pausedNodes.push([index, output]);
      return;
    }
    if (output instanceof TaskPaused) {
      throw new WeftError(
        'INTERRUPTED',
        `node "${node.name}" called interrupt(), which DAG mode does not support; compile with mode 'pregel'`,
      );
    }
    if (isCommand(output) && output.goto.length > 0) {
      throw new WeftError(
        'INVALID_UPDATE',
        `node "${node.name}" returned a Command with goto, which DAG mode does not support; use edges or conditional edges`,
      );
    }
    const value = isCommand(output) ? output.update : output;
    this.status[index] = DONE;
    this.writes[index] = value;
    if (this.durable && !replayed) {
      this.executed++;
      this.durable.nodeDone(index, output);
    }
    const { observer, path } = this.run;
    let routerInput = value;
    if (this.topology.state) {
      const post = applyStateWrites(this.topology.state, this.viewOf(index), [node.name], [value]).values;
      this.post.set(index, post);
      routerInput = post;
      const wait = replayed ? undefined : observer.values?.(post, path);
      if (wait) await wait;
    }
    if (!replayed) {
      const update = value instanceof SubgraphWrites ? Object.fromEntries(value.writes) : value;
      const wait = observer.updates ? observer.updates(node.name, update, path) : observer.pace?.();
      if (wait) await wait;
    }
    this.route(index, node, routerInput, value);
  }

  /** Activates chosen successors and resolves every structural successor of a finished node. */
  private route(
    index: number,
    node: CompiledNode | undefined,
    routerInput: unknown,
    output: unknown = routerInput,
  ): void {
    const chosen = new Set<number>(node ? node.edges : this.topology.start.edges);
    if (node) for (const join of node.joins) chosen.add(join.target);
    const branches = node ? node.branches : this.topology.start.branches;
    for (const branch of branches) addRouted(this.topology, branch, routerInput, chosen);
    const source = node?.name ?? START;
    const rank = index === START_INDEX ? -1 : (this.plan.rank[index] as number);
    const data = node ? node.dataEdges : this.topology.start.dataEdges;
    // One arrival per finished node, shared by the successors it reaches (entries are never changed).
    let arrival: Arrival | undefined;
    for (const successor of this.plan.successors.get(index) ?? []) {
      if (chosen.has(successor)) {
        if (successor >= 0) this.activated[successor] = 1;
        // A node reading this one's stream (ADR 022) already has its output.
        const streamed = successor >= 0 && this.status[successor] !== PENDING;
        if (this.topology.kind === 'dataflow' && !streamed)
          this.deliver(successor, (arrival ??= arrivalOf(node, output, rank, source)));
      } else if (data.length > 0 && data.includes(successor)) {
        // A data edge (workflows): the value arrives, but it does not make the successor run.
        this.deliver(successor, (arrival ??= arrivalOf(node, output, rank, source)));
      }
      this.resolve(successor);
    }
  }

  private deliver(target: number, arrival: Arrival): void {
    const list = this.inbox.get(target);
    if (list) list.push(arrival);
    else this.inbox.set(target, [arrival]);
  }

  private resolve(first: number): void {
    const work = [first];
    while (work.length > 0) {
      const index = work.pop() as number;
      if (index < 0) continue;
      this.remaining[index] = (this.remaining[index] as number) - 1;
      if (this.remaining[index] !== 0 || this.status[index] !== PENDING) continue;
      if (this.activated[index] === 1) {
        this.ready.push(index);
        continue;
      }
      this.status[index] = SKIPPED;
      for (const successor of this.plan.successors.get(index) ?? []) work.push(successor);
    }
  }

  private inputOf(index: number): unknown {
    const node = this.topology.nodes[index];
    return this.mergedInbox(index, node);
  }

  private mergedInbox(index: number, node: Pick<CompiledNode, 'name' | 'options'> | undefined): unknown {
    const list = this.inbox.get(index);
    if (!list) return undefined;
    this.inbox.delete(index);
    list.sort((a, b) => a.rank - b.rank);
    return mergeInbox({ sources: list.map((e) => e.source), values: list.map((e) => e.value) }, node);
  }

  /** The state a node sees: the input plus its ancestors' writes in topological order. */
  private viewOf(index: number): Record<string, unknown> {
    const preds = this.plan.predecessors[index] as readonly number[];
    if (preds.length === 1) {
      const only = preds[0] as number;
      return this.post.get(only) ?? this.viewOf(only);
    }
    const ancestors = new Set<number>();
    const stack = [...preds];
    while (stack.length > 0) {
      const current = stack.pop() as number;
      if (current < 0 || ancestors.has(current)) continue;
      ancestors.add(current);
      stack.push(...(this.plan.predecessors[current] as readonly number[]));
    }
    return this.fold([...ancestors]);
  }

  private fold(indices: number[]): Record<string, unknown> {
    const state = this.topology.state!;
    const done = indices
      .filter((i) => this.status[i] === DONE)
      .sort((a, b) => (this.plan.rank[a] as number) - (this.plan.rank[b] as number));
    const names = done.map((i) => (this.topology.nodes[i] as CompiledNode).name);
    let values = this.startValues;
    const writers = done.length > 1 ? new Map<string, number>() : undefined;
    for (let i = 0; i < done.length; i++) {
      const write = this.writes[done[i] as number];
      if (writers) this.conflicts.check(writers, done[i] as number, write);
      values = applyStateWrites(state, values, [names[i] as string], [write]).values;
    }
    return values;
  }

  /** The writes of finished nodes in topological order (for a state subgraph inside a state graph). */
  stateWrites(): Array<readonly [string, unknown]> {
    const done = this.topology.nodes
      .map((n) => n.index)
      .filter((i) => this.status[i] === DONE)
      .sort((a, b) => (this.plan.rank[a] as number) - (this.plan.rank[b] as number));
    const writes: Array<readonly [string, unknown]> = [];
    for (const index of done) {
      const update = this.writes[index];
      if (update instanceof SubgraphWrites) writes.push(...update.writes);
      else if (update && typeof update === 'object') writes.push(...Object.entries(update));
    }
    return writes;
  }

  /** Finished nodes in topological order (for checkpoints). */
  doneInOrder(): number[] {
    return this.topology.nodes
      .map((n) => n.index)
      .filter((i) => this.status[i] === DONE)
      .sort((a, b) => (this.plan.rank[a] as number) - (this.plan.rank[b] as number));
  }

  /** The write of a finished node (its output, or a Command's update). */
  writeOf(index: number): unknown {
    return this.writes[index];
  }

  /** After a pause: the nodes that paused (with their pauses) and the ready nodes not started. */
  pauseState(): {
    readonly paused: ReadonlyArray<readonly [number, TaskPaused]>;
    readonly held: readonly number[];
  } {
    return { paused: this.pausedNodes, held: [...this.held, ...this.ready] };
  }

  private output(): unknown {
    if (!this.topology.state) return this.mergedInbox(-1, this.topology.end);
    return this.fold(this.topology.nodes.map((n) => n.index));
  }
}

/** A value waiting in a dataflow node's inbox: who sent it, and its rank (inputs merge in rank order). */
interface Arrival {
  readonly rank: number;
  readonly source: string;
  readonly value: unknown;
}

/** What a finished node delivers: its output, under its `outputKey` when it has one. */
function arrivalOf(node: CompiledNode | undefined, output: unknown, rank: number, source: string): Arrival {
  const value = node?.options.outputKey !== undefined ? { [node.options.outputKey]: output } : output;
  return { rank, source, value };
}
