import { WeftError } from '../errors/weft-error.js';
import { WriteConflictError } from '../errors/write-conflict-error.js';
import { isPlainObject } from '../runnable/concat.js';
import { isPromiseLike } from '../runnable/runnable.js';
import { END } from '../vocabulary/constants.js';
import { isSend, type Send } from '../vocabulary/send.js';
import type { Goto } from './apply.js';
import type { Task } from './task.js';
import { PipedTask, PlannedStep, PlannedTask, SentTask } from './task.js';
import {
  type CompiledBranch,
  type CompiledJoin,
  type CompiledNode,
  END_INDEX,
  type Topology,
} from './topology.js';

/** Values waiting to become a dataflow node's input: sources and values in arrival order. */
export interface InboxEntry {
  readonly sources: string[];
  readonly values: unknown[];
}

/** Routing state that outlives one step (checkpointed): join barriers, dataflow inboxes, deferred nodes. */
export interface RoutingState {
  /** Join id → indices of the sources that arrived since the join target last ran. */
  readonly barriers: Map<number, Set<number>>;
  /** Node index (END_INDEX for the output) → pending inputs. Dataflow graphs only. */
  readonly inbox: Map<number, InboxEntry>;
  /** Deferred nodes triggered but held until nothing else is pending. */
  readonly deferred: Set<number>;
}

/** What one finished task routes: the node (or START, as `undefined`), its output and Command gotos. */
export interface Finished {
  readonly node: CompiledNode | undefined;
  /** A dataflow node's output (its successors' input); a state graph routes on the state (unset without gotos). */
  readonly output: unknown;
  readonly goto: Goto | undefined;
  /** The successors its output already streamed into in the same step (not sent there again). */
  readonly piped?: readonly number[];
  /** What its stream branches decided while it streamed, by branch position (ADR 022). */
  readonly decided?: ReadonlyArray<Promise<unknown> | undefined>;
}

/** What planning one superstep reads: built once per step by the loop. */
export interface PlanInput {
  readonly topology: Topology;
  readonly routing: RoutingState;
  /** What routers see for a finished task: the state after the step, or a dataflow node's output. */
  readonly routerInput: (item: Finished) => unknown;
  /** The step the planned tasks belong to (a number, or a subgraph-prefixed id). */
  readonly step: number | string;
}

/** Where one step's routing results collect: one per step, shared by the helpers that route. */
interface Collected {
  readonly topology: Topology;
  /** The step's sends in the order they were made: single ones, and routers' lists of nothing but sends. */
  readonly sends: SendBatch[];
  readonly deliver: (target: number) => void;
}

/**
 * One send, or a router's whole result when it held nothing but sends: kept as the router's own list, so
 * a map step of N sends does not copy N references into a growing array (about 3N slots on the way).
 */
type SendBatch = Send | readonly Send[];

/** Creates empty routing state. */
export function emptyRouting(): RoutingState {
  return { barriers: new Map(), inbox: new Map(), deferred: new Set() };
}

/**
 * Plans the next superstep from the tasks that just finished, in task order: static edges, joins,
 * conditional edges (routers see `routerInput`: the state after the step, or a dataflow node's
 * output), and Command gotos. Returns the next tasks: triggered nodes in node order, then sends in
 * the order they were made. Returns a promise only when a router is asynchronous.
 */
export function planNext(input: PlanInput, finished: readonly Finished[]): Task[] | Promise<Task[]> {
  const { topology, routerInput } = input;
  // Made at the first task with conditional edges: a step of N Send tasks to a node without them (a
  // map step) allocates no N-slot array here.
  let routed: unknown[][] | undefined;
  let async = false;
  for (let i = 0; i < finished.length; i++) {
    const item = finished[i] as Finished;
    const branches = item.node ? item.node.branches : topology.start.branches;
    if (branches.length === 0) continue;
    const results: unknown[] = [];
    for (let b = 0; b < branches.length; b++) {
      const branch = branches[b] as CompiledBranch;
      const early = item.decided?.[b];
      const result = early ? decided(branch, early) : callRouter(branch, routerInput(item));
      if (isPromiseLike(result)) async = true;
      results.push(result);
    }
    (routed ??= new Array(finished.length))[i] = results;
  }
  if (!routed) return collect(input, finished, noneRouted);
  if (!async) return collect(input, finished, routed);
  const pending = routed;
  return Promise.all(Array.from(finished, (_, i) => Promise.all(pending[i] ?? noRoutes))).then((resolved) =>
    collect(input, finished, resolved),
  );
}

/** What a node without conditional edges routed (shared: never written). */
const noRoutes: unknown[] = [];

/** What a step in which no node has conditional edges routed (shared: never written). */
const noneRouted: ReadonlyArray<unknown[] | undefined> = [];

function callRouter(branch: CompiledBranch, input: unknown): unknown {
  let result: unknown;
  try {
    result = (branch.router as (value: unknown) => unknown)(input);
  } catch (error) {
    throw routerError(branch, error);
  }
  // An asynchronous router that rejects is reported like one that throws.
  if (isPromiseLike(result)) {
    return Promise.resolve(result).catch((error: unknown) => {
      throw routerError(branch, error);
    });
  }
  return result;
}

/** A stream branch's decision, made while its node streamed; a failure is reported like a router's. */
function decided(branch: CompiledBranch, decision: Promise<unknown>): Promise<unknown> {
  return decision.catch((error: unknown) => {
    throw routerError(branch, error);
  });
}

function routerError(branch: CompiledBranch, error: unknown): WeftError {
  return new WeftError(
    'NODE_FAILED',
    `the router of "${branch.from}" threw: ${(error as Error)?.message ?? error}`,
    {
      cause: error,
    },
  );
}

/** `routed[i]`: what task `i`'s routers returned (missing when its node has no conditional edges). */
function collect(
  input: PlanInput,
  finished: readonly Finished[],
  routed: ReadonlyArray<unknown[] | undefined>,
): Task[] {
  const { topology, routing } = input;
  const triggered: number[] = [];
  let seen: Set<number> | undefined;
  const trigger = (target: number): void => {
    if (target === END_INDEX) return;
    if (seen) {
      if (seen.has(target)) return;
      seen.add(target);
    } else if (triggered.includes(target)) return;
    else if (triggered.length >= 16) seen = new Set(triggered).add(target);
    triggered.push(target);
  };
  const sends: SendBatch[] = [];
  const dataflow = topology.kind === 'dataflow';
  let item = finished[0] as Finished;
  let source = '';
  const deliver = (target: number): void => {
    if (dataflow) pushInbox(routing, target, source, item);
    trigger(target);
  };
  const collected: Collected = { topology, sends, deliver };
  for (let i = 0; i < finished.length; i++) {
    item = finished[i] as Finished;
    source = item.node ? item.node.name : '__start__';
    const edges = item.node ? item.node.edges : topology.start.edges;
    const piped = item.piped;
    // Indexed loops: this runs once per task (100,000 in a big map step), and `for…of` here, in a
    // function V8 had not optimized yet, allocated an iterator and its results per task (~200 bytes).
    for (let e = 0; e < edges.length; e++)
      if (piped === undefined || !piped.includes(edges[e] as number)) deliver(edges[e] as number);
    if (item.node) {
      const { joins } = item.node;
      for (let j = 0; j < joins.length; j++) {
        const join = joins[j] as CompiledJoin;
        let arrived = routing.barriers.get(join.id);
        if (!arrived) routing.barriers.set(join.id, (arrived = new Set()));
        arrived.add(item.node.index);
        if (dataflow) pushInbox(routing, join.target, source, item);
        if (arrived.size === join.sources.length) {
          routing.barriers.delete(join.id);
          trigger(join.target);
        }
      }
    }
    const branches = item.node ? item.node.branches : topology.start.branches;
    const results = routed[i] ?? noRoutes;
    for (let b = 0; b < results.length; b++) {
      addTargets(collected, branches[b] as CompiledBranch, results[b]);
    }
    if (item.goto) for (const target of item.goto) addGoto(collected, source, target);
  }
  return toTasks(input, triggered, sends);
}

function addTargets(collected: Collected, branch: CompiledBranch, result: unknown): void {
  const { topology, sends } = collected;
  const list = Array.isArray(result) ? result : [result];
  let sent = 0;
  for (let i = 0; i < list.length; i++) {
    const target: unknown = list[i];
    if (isSend(target)) {
      checkTarget(topology, branch.from, target.node, branch.targets);
      sent++;
      continue;
    }
    if (typeof target !== 'string') {
      throw new WeftError(
        'INVALID_UPDATE',
        `the router of "${branch.from}" returned ${String(target)}; return a node name, END, a Send, or a list of them`,
      );
    }
    checkTarget(topology, branch.from, target, branch.targets);
    collected.deliver(target === END ? END_INDEX : (topology.byName.get(target) as CompiledNode).index);
  }
  if (sent === 0) return;
  if (sent === list.length) sends.push(list as Send[]);
  else for (const target of list) if (isSend(target)) sends.push(target);
}

function addGoto(collected: Collected, source: string, target: string | Send): void {
  const { topology } = collected;
  if (isSend(target)) {
    checkTarget(topology, source, target.node, undefined);
    collected.sends.push(target);
    return;
  }
  checkTarget(topology, source, target, undefined);
  collected.deliver(target === END ? END_INDEX : (topology.byName.get(target) as CompiledNode).index);
}

function checkTarget(
  topology: Topology,
  from: string,
  target: string,
  declared: ReadonlySet<string> | undefined,
): void {
  if (target !== END && !topology.byName.has(target)) {
    throw new WeftError(
      'INVALID_UPDATE',
      `"${from}" routed to "${target}", which is not a node (nodes: ${[...topology.byName.keys()].join(', ')})`,
    );
  }
  if (declared && !declared.has(target)) {
    throw new WeftError(
      'INVALID_UPDATE',
      `the router of "${from}" returned "${target}", which is not among its declared targets (${[...declared].join(', ')})`,
    );
  }
}

function pushInbox(routing: RoutingState, target: number, source: string, item: Finished): void {
  const { node, output } = item;
  const value = node?.options.outputKey !== undefined ? { [node.options.outputKey]: output } : output;
  const entry = routing.inbox.get(target);
  if (entry) {
    entry.sources.push(source);
    entry.values.push(value);
  } else routing.inbox.set(target, { sources: [source], values: [value] });
}

function toTasks(input: PlanInput, triggered: number[], sends: readonly SendBatch[]): Task[] {
  const { topology, routing, step } = input;
  if (triggered.length > 1) triggered.sort((a, b) => a - b);
  let sendCount = 0;
  for (const batch of sends) sendCount += Array.isArray(batch) ? batch.length : 1;
  let runnable = triggered;
  if (topology.hasDeferred) runnable = holdDeferred(topology, triggered, sendCount, routing);
  // Sized once: grown by `push`, a list of N tasks allocates about 3N slots on the way.
  const tasks: Task[] = new Array(runnable.length + sendCount);
  const dataflow = topology.kind === 'dataflow';
  const shared = new PlannedStep(step, topology.nodes, dataflow);
  let position = 0;
  for (const index of runnable) {
    const node = topology.nodes[index] as CompiledNode;
    const input = dataflow ? takeInbox(routing, node) : undefined;
    tasks[position] = new PlannedTask(index, input, position, shared);
    position++;
  }
  const sendTask = (send: Send): void => {
    const node = topology.byName.get(send.node) as CompiledNode;
    tasks[position] = new SentTask(node.index, send.input, position, shared);
    position++;
  };
  for (const batch of sends) {
    if (Array.isArray(batch)) for (const send of batch as readonly Send[]) sendTask(send);
    else sendTask(batch as Send);
  }
  if (topology.hasPipes) addPipedTasks(topology, tasks, shared);
  return tasks;
}

/**
 * Plans, after the step's other tasks (so their positions and ids do not change), the successors their
 * chunks stream into (ADR 022): one task per reader of each producer task (each reads its own copy),
 * following chains (model → parser → formatter) depth first and stopping where a chain would come back
 * to one of its nodes.
 */
export function addPipedTasks(topology: Topology, tasks: Task[], step: PlannedStep): void {
  const planned = tasks.length;
  for (let i = 0; i < planned; i++) addReaders(topology, { tasks, step }, i, [(tasks[i] as Task).node]);
}

/** Plans the readers of the task at `producer` and theirs; `chain` holds the nodes on the way there. */
function addReaders(
  topology: Topology,
  at: { readonly tasks: Task[]; readonly step: PlannedStep },
  producer: number,
  chain: readonly number[],
): void {
  const readers = (topology.nodes[(at.tasks[producer] as Task).node] as CompiledNode).pipes;
  if (readers === undefined) return;
  for (const reader of readers) {
    if (reader === END_INDEX || chain.includes(reader)) continue;
    at.tasks.push(new PipedTask(reader, at.tasks.length, at.step, producer));
    addReaders(topology, at, at.tasks.length - 1, [...chain, reader]);
  }
}

function holdDeferred(
  topology: Topology,
  triggered: number[],
  sendCount: number,
  routing: RoutingState,
): number[] {
  const now: number[] = [];
  for (const index of triggered) {
    if ((topology.nodes[index] as CompiledNode).deferred) routing.deferred.add(index);
    else now.push(index);
  }
  if (now.length > 0 || sendCount > 0 || routing.deferred.size === 0) return now;
  const released = [...routing.deferred].sort((a, b) => a - b);
  routing.deferred.clear();
  return released;
}

/** Takes (and clears) a dataflow node's pending inputs, merged into one input. */
export function takeInbox(
  routing: RoutingState,
  node: CompiledNode | undefined,
  index = node?.index ?? END_INDEX,
): unknown {
  const entry = routing.inbox.get(index);
  if (!entry) return undefined;
  routing.inbox.delete(index);
  return mergeInbox(entry, node);
}

/** Merges a node's pending inputs into one (its `merge` option, or outputKey objects key by key). */
export function mergeInbox(
  entry: InboxEntry,
  node: Pick<CompiledNode, 'name' | 'options'> | undefined,
): unknown {
  // A declared merge always runs, so the node's input has one shape however many inputs arrived.
  if (node?.options.merge) return node.options.merge(entry.values, entry.sources);
  if (entry.values.length === 1) return entry.values[0];
  const name = node?.name ?? END;
  if (entry.values.every(isPlainObject)) return mergeKeyed(name, entry);
  throw new WriteConflictError(
    name,
    entry.sources,
    `give "${name}" a merge option, or give each source an outputKey`,
  );
}

function mergeKeyed(name: string, entry: InboxEntry): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  const owner = new Map<string, string>();
  entry.values.forEach((value, i) => {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      const previous = owner.get(key);
      if (previous !== undefined) {
        throw new WriteConflictError(
          `${name}.${key}`,
          [previous, entry.sources[i] as string],
          'use distinct outputKeys or a merge option',
        );
      }
      owner.set(key, entry.sources[i] as string);
      merged[key] = item;
    }
  });
  return merged;
}
