import { WeftError } from '../errors/weft-error.js';
import { sortableId } from '../internal/ids.js';
import { applyExternal, type ExternalChange } from '../pregel/external-change.js';
import { checkUpdate } from '../pregel/input-check.js';
import { PregelLoop } from '../pregel/loop.js';
import { emptyRouting } from '../pregel/plan.js';
import type { RunContext } from '../pregel/run-context.js';
import { PlannedStep, PlannedTask, SentTask, type Task } from '../pregel/task.js';
import type { CompiledNode, Topology } from '../pregel/topology.js';
import { Command, isCommand } from '../vocabulary/command.js';
import { END, START } from '../vocabulary/constants.js';
import { isSend } from '../vocabulary/send.js';
import { reopenPauses } from './answered-pauses.js';
import type { TaskWrite } from './checkpoint-body.js';
import { CheckpointSession } from './checkpoint-session.js';
import type { Checkpointer } from './checkpointer.js';
import { type LoadedCheckpoint, loadCheckpoint } from './load.js';
import { loadRouting, loadTasks, renewTaskIds } from './loop-state.js';
import { payloadChecksum } from './payload-checksum.js';
import { restoreOutput, serializeTaskWrite } from './write-encoding.js';

/** Options of `updateState`. */
export interface UpdateStateOptions {
  /**
   * Apply the values as if this node wrote them; the next tasks are then routed from it (and from the
   * tasks that already finished in a paused step). `END` finishes the thread: nothing runs next and
   * pending interrupts are dropped. `START` writes the values as a new turn's input: the thread's `input`
   * checkpoint, with the nodes START leads to next (how a thread is seeded or cloned from its start).
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

/** The thread a state write goes to: its store, the graph it belongs to and the run context it checks with. */
export interface ThreadTarget {
  readonly checkpointer: Checkpointer;
  readonly topology: Topology;
  readonly run: RunContext;
  readonly threadId: string;
}

/** An update applied in the same superstep before the last one (see `bulkUpdateState`), already checked. */
export interface EarlierUpdate {
  readonly node: CompiledNode;
  readonly name: string;
  readonly output: unknown;
}

/** What {@link writeClaimed} takes besides the values. */
type WriteOptions = UpdateStateOptions & {
  readonly goto?: Command['goto'];
  readonly before?: readonly EarlierUpdate[];
};

/**
 * Writes a new checkpoint with `values` applied through the reducers on top of the latest (or a given)
 * checkpoint, and returns its id. Keys not given keep their values. At the thread's head, tasks that
 * already finished in a paused step keep their writes and do not run again. A thread with no checkpoint
 * starts from the empty state (as LangGraph's `updateState` does). It claims the thread first, so it
 * never races a run.
 *
 * @throws {CheckpointConflictError} when a run (or another update) holds the thread.
 */
export async function writeState(
  thread: ThreadTarget,
  values: unknown,
  options: WriteOptions,
): Promise<string> {
  const claim = await thread.checkpointer.claimThread(thread.threadId);
  try {
    return await writeClaimed(thread, values, options);
  } finally {
    await claim.release();
  }
}

/** {@link writeState} for a caller that holds the thread's claim (a run given a `Command` input). */
export async function writeClaimed(
  thread: ThreadTarget,
  values: unknown,
  options: WriteOptions,
): Promise<string> {
  const { checkpointer, topology, run, threadId } = thread;
  const ns = options.ns ?? '';
  const loaded = await loadCheckpoint(checkpointer, topology, { threadId, ns, id: options.checkpointId });
  if (!loaded && ns !== '') {
    throw new WeftError('NOT_FOUND', `thread "${threadId}" has no checkpoint in namespace "${ns}" to update`);
  }
  let as = asNodeOf(topology, options.asNode);
  if (!loaded && topology.mode === 'dag' && as !== 'start') {
    // A DAG thread's history starts with a run's `input` checkpoint (ADR 023): values without `asNode`
    // are that input; a node's values go on top of an empty one.
    if (as === undefined) as = 'start';
    else {
      await writeClaimed(thread, null, { asNode: START });
      return writeClaimed(thread, values, options);
    }
  }
  const update = await checkValues(topology, values, as);
  const session = new CheckpointSession({
    graph: topology,
    checkpointer,
    threadId,
    ns,
    durability: 'sync',
    parents: {},
  });
  const loop = new PregelLoop(topology, run, { hooks: session.hooks() });
  if (loaded && as !== 'start') return writeOnto({ thread, loaded, loop, session }, { update, as, options });
  if (loaded) session.continueFrom(loaded, false, await headSeqOf(thread, ns, options, loaded));
  if (as === 'start' || as === undefined) {
    // A new turn's input (`asNode: START`; and, as LangGraph does, values without `asNode` on a thread
    // with no checkpoint): START's write, routed to the nodes it leads to, as a run's input would be.
    if (as === 'start') session.startInput();
    else session.markSource('update');
    loop.restore({ step: loaded ? loaded.record.step + 1 : as === 'start' ? -1 : 0 });
    if (loaded) loop.restore({ values: loaded.values });
    await loop.begin(update);
  } else {
    // The first checkpoint of a thread that has none, written as a node: from the empty state.
    session.markSource('update');
    loop.restore({ step: 0, routing: emptyRouting(), tasks: [] });
    const record = await applyExternal(loop, { finished: [...(options.before ?? [])], update, as });
    await session.hooks().afterStep?.(loop, record);
  }
  await session.flush();
  return session.currentId as string;
}

/** A write on top of a loaded checkpoint (see {@link writeClaimed}). */
async function writeOnto(
  at: {
    readonly thread: ThreadTarget;
    readonly loaded: LoadedCheckpoint;
    readonly loop: PregelLoop;
    readonly session: CheckpointSession;
  },
  change: {
    readonly update: unknown;
    readonly as: CompiledNode | 'end' | undefined;
    readonly options: WriteOptions;
  },
): Promise<string> {
  const { thread, loaded, loop, session } = at;
  const { update, as, options } = change;
  const { checkpointer, topology, threadId } = thread;
  const ns = options.ns ?? '';
  const head = await headSeqOf(thread, ns, options, loaded);
  const atHead = options.checkpointId === undefined || head === loaded.record.seq;
  session.continueFrom(loaded, false, head);
  session.markSource('update');
  const planned = loadTasks(topology, loaded.body.next);
  // What stays of the paused step: tasks waiting at an `interrupt()` (or inside a paused nested graph)
  // keep their id and pause — the update edits the state around a question that is still open — and, at
  // the head, tasks that finished keep their output. The other tasks get new ids: continuing must run
  // them on the updated state, not reuse what another branch stored under their ids.
  const kept = keptWrites((atHead ? loaded : reopenPauses(loaded)).taskWrites, atHead);
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

/** The `seq` of the namespace's head: the loaded checkpoint's when it is the head (no `checkpointId`). */
async function headSeqOf(
  thread: ThreadTarget,
  ns: string,
  options: WriteOptions,
  loaded: LoadedCheckpoint,
): Promise<number> {
  // Read here, not through durable-run, which imports this module.
  if (options.checkpointId === undefined) return loaded.record.seq;
  const latest = await thread.checkpointer.get(thread.threadId, { ns });
  return latest ? latest.checkpoint.seq : loaded.record.seq;
}

/**
 * The checked values of an update: `undefined` for none; a `Command` (as a node may return, with
 * `goto`s and `Send`s) keeps its goto, its update checked, when it is written as a node.
 *
 * @throws WeftError `INVALID_ARGUMENT` for a `Command` not written as a node.
 * @throws InputValidationError when the values fail the state's update schema.
 */
export async function checkValues(
  topology: Topology,
  values: unknown,
  as: CompiledNode | 'start' | 'end' | undefined,
): Promise<unknown> {
  if (values === null || values === undefined) return undefined;
  if (!isCommand(values)) return checkUpdate(topology.spec, 'the values given to updateState', values);
  if (as === undefined || as === 'start' || as === 'end' || values.graph !== undefined || values.hasResume) {
    throw new WeftError(
      'INVALID_ARGUMENT',
      'updateState: a Command as values needs an asNode that is a node, and carries only update and goto',
    );
  }
  const update =
    values.update === undefined
      ? undefined
      : await checkUpdate(topology.spec, 'the update of the Command given to updateState', values.update);
  return new Command({ update, goto: values.goto });
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

/** The node `asNode` names, `end` for END, `start` for START, `undefined` when not given. */
export function asNodeOf(
  topology: Topology,
  asNode: string | undefined,
): CompiledNode | 'start' | 'end' | undefined {
  if (asNode === undefined) return undefined;
  if (asNode === END) return 'end';
  if (asNode === START) return 'start';
  const node = topology.byName.get(asNode);
  if (!node) {
    const hint = asNode === '__input__' ? " (a turn's input is written as START: one input checkpoint)" : '';
    throw new WeftError(
      'INVALID_ARGUMENT',
      `updateState: asNode "${asNode}" is not a node (nodes: ${[...topology.byName.keys()].join(', ')}, START or END)${hint}`,
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
