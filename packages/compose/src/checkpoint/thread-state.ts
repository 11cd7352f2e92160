import { WeftError } from '../errors/weft-error.js';
import { sortableId } from '../internal/ids.js';
import { pendingInterrupts } from '../interrupt/resume.js';
import { applyStateWrites } from '../pregel/apply.js';
import { applyExternal, type ExternalChange } from '../pregel/external-change.js';
import { checkUpdate } from '../pregel/input-check.js';
import { PregelLoop } from '../pregel/loop.js';
import type { RunContext } from '../pregel/run-context.js';
import { type PendingInterrupt, PlannedStep, PlannedTask, SentTask, type Task } from '../pregel/task.js';
import type { CompiledNode, Topology } from '../pregel/topology.js';
import type { Command } from '../vocabulary/command.js';
import { END } from '../vocabulary/constants.js';
import { isSend } from '../vocabulary/send.js';
import type { TaskErrorInfo, TaskWrite } from './checkpoint-body.js';
import { CheckpointSession } from './checkpoint-session.js';
import type { Checkpointer, CheckpointSource, JsonValue, ListCheckpointsOptions } from './checkpointer.js';
import {
  decodeBody,
  decodeTaskWrites,
  type LoadedCheckpoint,
  loadCheckpoint,
  rebuildValues,
} from './load.js';
import { loadRouting, loadTasks, renewTaskIds } from './loop-state.js';
import { payloadChecksum } from './payload-checksum.js';
import { restoreOutput, serializeTaskWrite } from './write-encoding.js';

/** A thread's state at one checkpoint, as `getState` and `getStateHistory` return it. */
export interface StateSnapshot<TValues = Record<string, unknown>> {
  /** State values (state graphs); for dataflow graphs, what reached END so far. */
  readonly values: TValues;
  /**
   * Nodes that run next when the thread continues (empty when it finished). At the head, tasks that
   * already finished in a paused or failed step are left out (they do not run again); a snapshot read
   * by checkpoint id, or from the history, lists every task of the next step.
   */
  readonly next: readonly string[];
  /** The next step's tasks, with the interrupts they raised and whether they already finished. */
  readonly tasks: ReadonlyArray<{
    readonly id: string;
    readonly node: string;
    readonly done: boolean;
    readonly interrupts: readonly PendingInterrupt[];
    /** Set when the task failed the last time it ran (a resume runs it again). */
    readonly error?: TaskErrorInfo;
    /** A subgraph task's checkpoint namespace (with `getState(thread, { subgraphs: true })`). */
    readonly ns?: string;
    /** The subgraph's own state, when it has checkpoints (with `getState(thread, { subgraphs: true })`). */
    readonly state?: StateSnapshot;
  }>;
  /** Interrupts waiting for a resume value. */
  readonly interrupts: readonly PendingInterrupt[];
  readonly checkpointId: string;
  readonly parentId: string | null;
  readonly step: number;
  readonly source: CheckpointSource;
  readonly createdAt: string;
  readonly metadata: Readonly<Record<string, JsonValue>>;
}

/** Where a thread's checkpoints are read: the store, the graph, the thread and its namespace. */
export interface ThreadAt {
  readonly checkpointer: Checkpointer;
  readonly topology: Topology;
  readonly threadId: string;
  /** The checkpoint namespace (a subgraph's); `''`, the graph's own, when not given. */
  readonly ns?: string | undefined;
}

/** Reads a thread's state at its latest (or a given) checkpoint; `undefined` for an unknown thread. */
export async function readState(thread: ThreadAt, checkpointId?: string): Promise<StateSnapshot | undefined> {
  const { checkpointer, topology, threadId, ns = '' } = thread;
  const loaded = await loadCheckpoint(checkpointer, topology, { threadId, ns, id: checkpointId });
  if (!loaded) return undefined;
  const snapshot = snapshotOf(topology, loaded);
  // The latest state shows the writes of the tasks that finished in a paused (or failed) step, as the
  // run's output at the pause did, and leaves them out of `next`: they are on record and do not run
  // again. A given checkpoint shows itself as stored: its own values, every task next (as the reference
  // engine does; replaying it runs them all again).
  if (checkpointId !== undefined) return snapshot;
  return {
    ...snapshot,
    values: withFinished(topology, loaded, snapshot.values),
    next: snapshot.tasks.filter((task) => !task.done).map((task) => task.node),
  };
}

/** Values with the outputs of the next step's finished tasks applied (state graphs), in task order. */
function withFinished<TValues>(topology: Topology, loaded: LoadedCheckpoint, values: TValues): TValues {
  if (!topology.state) return values;
  const names: string[] = [];
  const outputs: unknown[] = [];
  for (const task of loaded.body.next) {
    const write = loaded.taskWrites.get(task.id);
    if (write?.kind !== 'output') continue;
    names.push(task.node);
    outputs.push(restoreOutput(write.output));
  }
  if (outputs.length === 0) return values;
  try {
    return applyStateWrites(topology.state, values as Record<string, unknown>, names, outputs)
      .values as TValues;
  } catch {
    return values;
  }
}

/** Lists a thread's states newest first (every branch of every fork). */
export async function readHistory(
  thread: ThreadAt,
  options: Omit<ListCheckpointsOptions, 'ns' | 'baseId'> = {},
): Promise<StateSnapshot[]> {
  const { checkpointer, topology, threadId, ns = '' } = thread;
  const records = await checkpointer.list(threadId, { ...options, ns });
  const cache = new Map<string, Record<string, unknown>>();
  const source = { checkpointer, topology, cache };
  const snapshots: StateSnapshot[] = new Array(records.length);
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i]!;
    const body = decodeBody(record, topology);
    const values = await rebuildValues(source, record, body);
    cache.set(record.id, values);
    const stored = await checkpointer.get(threadId, { ns, id: record.id });
    snapshots[i] = snapshotOf(topology, {
      record,
      body,
      values,
      taskWrites: decodeTaskWrites(stored?.writes ?? []),
    });
  }
  return snapshots;
}

function snapshotOf(topology: Topology, loaded: LoadedCheckpoint): StateSnapshot {
  const { record, body } = loaded;
  const routing = loadRouting(topology, body.routing);
  const end = routing.inbox.get(-1);
  const values = topology.state
    ? loaded.values
    : (end?.values[end.values.length - 1] as Record<string, unknown>);
  const tasks: Array<StateSnapshot['tasks'][number]> = body.next.map((task) => {
    const write = loaded.taskWrites.get(task.id);
    return {
      id: task.id,
      node: task.node,
      done: write?.kind === 'output',
      interrupts: write?.kind === 'paused' ? write.interrupts : [],
      ...(write?.kind === 'error' ? { error: write.error } : {}),
    };
  });
  // A DAG run's checkpoint lists only the nodes it had planned; a node that failed since (its run has no
  // later checkpoint) is on record as a task write, and runs again when the thread continues.
  if (topology.mode === 'dag') {
    for (const [id, write] of loaded.taskWrites) {
      if (write.kind === 'error' && !tasks.some((task) => task.id === id))
        tasks.push({ id, node: write.node, done: false, interrupts: [], error: write.error });
    }
  }
  return {
    values,
    next: tasks.map((task) => task.node),
    tasks,
    interrupts: pendingInterrupts(loaded),
    checkpointId: record.id,
    parentId: record.parentId,
    step: record.step,
    source: record.source,
    createdAt: record.createdAt,
    metadata: record.metadata,
  };
}

/** Options of `updateState`. */
export interface UpdateStateOptions {
  /**
   * Apply the values as if this node wrote them; the next tasks are then routed from it (and from the
   * tasks that already finished in a paused step). `END` finishes the thread: nothing runs next and
   * pending interrupts are dropped.
   */
  readonly asNode?: string;
  /** Update this checkpoint instead of the latest (a fork: history is kept). */
  readonly checkpointId?: string;
  /**
   * Update a subgraph's state instead of the graph's: its checkpoint namespace, as `getState(thread,
   * { subgraphs: true })` shows it (`tasks[i].ns`), e.g. `"agent:<taskId>"`.
   */
  readonly ns?: string;
}

/**
 * Writes a new checkpoint with `values` applied through the reducers on top of the latest (or a given)
 * checkpoint, and returns its id. Keys not given keep their values. At the thread's head, tasks that
 * already finished in a paused step keep their writes and do not run again. It claims the thread
 * first, so it never races a run.
 *
 * @throws {CheckpointConflictError} when a run (or another update) holds the thread.
 */
export async function writeState(
  thread: ThreadTarget,
  values: unknown,
  options: UpdateStateOptions & { readonly goto?: Command['goto'] },
): Promise<string> {
  const claim = await thread.checkpointer.claimThread(thread.threadId);
  try {
    return await writeClaimed(thread, values, options);
  } finally {
    await claim.release();
  }
}

/** The thread a state write goes to: its store, the graph it belongs to and the run context it checks with. */
export interface ThreadTarget {
  readonly checkpointer: Checkpointer;
  readonly topology: Topology;
  readonly run: RunContext;
  readonly threadId: string;
}

/** {@link writeState} for a caller that holds the thread's claim (a run given a `Command` input). */
export async function writeClaimed(
  thread: ThreadTarget,
  values: unknown,
  options: UpdateStateOptions & {
    readonly goto?: Command['goto'];
    readonly before?: readonly EarlierUpdate[];
  },
): Promise<string> {
  const { checkpointer, topology, run, threadId } = thread;
  const ns = options.ns ?? '';
  const loaded = await loadCheckpoint(checkpointer, topology, { threadId, ns, id: options.checkpointId });
  if (!loaded) {
    const where = ns === '' ? '' : ` in namespace "${ns}"`;
    throw new WeftError('NOT_FOUND', `thread "${threadId}" has no checkpoint${where} to update`);
  }
  const as = asNodeOf(topology, options.asNode);
  const update =
    values === null || values === undefined
      ? undefined
      : await checkUpdate(topology.spec, 'the values given to updateState', values);
  const session = new CheckpointSession({ checkpointer, threadId, ns, durability: 'sync', parents: {} });
  // The head (its seq orders the update after it); read here, not through durable-run, which imports this.
  const latest = options.checkpointId === undefined ? undefined : await checkpointer.get(threadId, { ns });
  const head = latest && { id: latest.checkpoint.id, seq: latest.checkpoint.seq };
  const atHead = head === undefined || head.id === loaded.record.id;
  session.continueFrom(loaded, false, head?.seq);
  session.markSource('update');
  const loop = new PregelLoop(topology, run, { hooks: session.hooks() });
  const planned = loadTasks(topology, loaded.body.next);
  // What stays of the paused step: tasks waiting at an `interrupt()` (or inside a paused nested graph)
  // keep their id and pause — the update edits the state around a question that is still open — and, at
  // the head, tasks that finished keep their output. The other tasks get new ids: continuing must run
  // them on the updated state, not reuse what another branch stored under their ids.
  const kept = keptWrites(loaded.taskWrites, atHead);
  const finished: Array<ExternalChange['finished'][number]> =
    as === undefined ? [] : [...finishedOutputs(topology, planned, kept)];
  // Updates of the same superstep given before this one (`bulkUpdateState`) land as writes of their nodes.
  for (const earlier of options.before ?? []) finished.push(earlier);
  loop.restore({
    checkpointId: loaded.record.id,
    values: loaded.values,
    routing: loadRouting(topology, loaded.body.routing),
    tasks: renewTaskIds(topology, planned, sortableId(), (task) => kept.has(task.id)),
    step: loaded.record.step + 1,
  });
  const record = await applyExternal(loop, { finished, update, as });
  if (options.goto) loop.restore({ tasks: withGoto(topology, loop.tasks, options.goto, String(loop.step)) });
  await session.hooks().afterStep?.(loop, record);
  await session.flush();
  const checkpointId = session.currentId as string;
  if (as !== undefined) return checkpointId;
  for (const task of loop.tasks) {
    const write = kept.get(task.id);
    if (!write) continue;
    const payload = serializeTaskWrite(write);
    const checksum = payloadChecksum(payload);
    await checkpointer.putWrites({ threadId, ns, checkpointId, taskId: task.id, payload, checksum });
  }
  return checkpointId;
}

/** An update applied in the same superstep before the last one (see `bulkUpdateState`), already checked. */
export interface EarlierUpdate {
  readonly node: CompiledNode;
  readonly name: string;
  readonly output: unknown;
}

/**
 * The planned tasks plus the targets of a `Command({ goto })` given as run input: a node that is not
 * planned yet, and every `Send`. END adds nothing.
 */
function withGoto(topology: Topology, tasks: readonly Task[], goto: Command['goto'], prefix: string): Task[] {
  const next = [...tasks];
  const step = new PlannedStep(prefix, topology.nodes, topology.kind === 'dataflow');
  for (const target of goto) {
    const name = isSend(target) ? target.node : target;
    if (name === END) continue;
    const node = topology.byName.get(name);
    if (!node) {
      throw new WeftError(
        'INVALID_ARGUMENT',
        `Command({ goto }): "${name}" is not a node (nodes: ${[...topology.byName.keys()].join(', ')}, or END)`,
      );
    }
    if (isSend(target)) next.push(new SentTask(node.index, target.input, next.length, step));
    else if (!next.some((task) => task.node === node.index && !task.hasInput))
      next.push(new PlannedTask(node.index, undefined, next.length, step));
  }
  return next;
}

/** The node `asNode` names, `end` for END, `undefined` when not given. */
export function asNodeOf(topology: Topology, asNode: string | undefined): CompiledNode | 'end' | undefined {
  if (asNode === undefined) return undefined;
  if (asNode === END) return 'end';
  const node = topology.byName.get(asNode);
  if (!node) {
    throw new WeftError(
      'INVALID_ARGUMENT',
      `updateState: asNode "${asNode}" is not a node (nodes: ${[...topology.byName.keys()].join(', ')}, or END)`,
    );
  }
  return node;
}

/** The outputs of the planned tasks that finished (in task order), to apply before an `asNode` update. */
function finishedOutputs(
  topology: Topology,
  tasks: readonly Task[],
  kept: ReadonlyMap<string, TaskWrite>,
): ExternalChange['finished'] {
  const finished: Array<ExternalChange['finished'][number]> = [];
  for (const task of tasks) {
    const write = kept.get(task.id);
    if (write?.kind !== 'output') continue;
    const node = topology.nodes[task.node] as CompiledNode;
    finished.push({ node, name: node.name, output: restoreOutput(write.output) });
  }
  return finished;
}

/**
 * Task writes an update keeps, by task id: pauses of tasks waiting for an answer and, at the thread's
 * head, outputs of tasks that finished. Static breakpoints are not kept: continuing from an update passes
 * a breakpoint, as `invoke(null)` after editing at a breakpoint should.
 */
function keptWrites(writes: ReadonlyMap<string, TaskWrite>, head: boolean): Map<string, TaskWrite> {
  const kept = new Map<string, TaskWrite>();
  for (const [taskId, write] of writes) {
    if (write.kind === 'output') {
      if (head) kept.set(taskId, write);
      continue;
    }
    // Results of a paused task's calls are also in its pause's memo, which is kept with it.
    if (write.kind === 'error' || write.kind === 'call') continue;
    const breakpoint = write.interrupts.every(
      (interrupt) => interrupt.id === `${taskId}:before` || interrupt.id === `${taskId}:after`,
    );
    if (!breakpoint) kept.set(taskId, write);
  }
  return kept;
}
