import { WeftError } from '../errors/weft-error.js';
import { END } from '../graph/constants.js';
import { checkUpdate } from '../graph/input-check.js';
import { sortableId } from '../internal/ids.js';
import { pendingInterrupts } from '../interrupt/resume.js';
import { PregelLoop } from '../pregel/loop.js';
import type { RunContext } from '../pregel/run-context.js';
import type { PendingInterrupt } from '../pregel/task.js';
import type { Topology } from '../pregel/topology.js';
import type { TaskWrite } from './checkpoint-body.js';
import { CheckpointSession } from './checkpoint-session.js';
import type { Checkpointer, CheckpointSource, JsonValue, ListCheckpointsOptions } from './checkpointer.js';
import { headSeq } from './durable-run.js';
import {
  decodeBody,
  decodeTaskWrites,
  type LoadedCheckpoint,
  loadCheckpoint,
  rebuildValues,
} from './load.js';
import { loadRouting, loadTasks, renewTaskIds } from './loop-state.js';
import { serializeTaskWrite } from './write-encoding.js';

/** A thread's state at one checkpoint, as `getState` and `getStateHistory` return it. */
export interface StateSnapshot<TValues = Record<string, unknown>> {
  /** State values (state graphs); for dataflow graphs, what reached END so far. */
  readonly values: TValues;
  /** Nodes that run next when the thread continues (empty when it finished). */
  readonly next: readonly string[];
  /** The next step's tasks, with the interrupts they raised and whether they already finished. */
  readonly tasks: ReadonlyArray<{
    readonly id: string;
    readonly node: string;
    readonly done: boolean;
    readonly interrupts: readonly PendingInterrupt[];
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

/** Reads a thread's state at its latest (or a given) checkpoint; `undefined` for an unknown thread. */
export async function readState(
  checkpointer: Checkpointer,
  topology: Topology,
  threadId: string,
  checkpointId?: string,
): Promise<StateSnapshot | undefined> {
  const loaded = await loadCheckpoint(checkpointer, topology, { threadId, ns: '', id: checkpointId });
  return loaded ? snapshotOf(topology, loaded) : undefined;
}

/** Lists a thread's states newest first (every branch of every fork). */
export async function readHistory(
  checkpointer: Checkpointer,
  topology: Topology,
  threadId: string,
  options: Omit<ListCheckpointsOptions, 'ns' | 'baseId'> = {},
): Promise<StateSnapshot[]> {
  const records = await checkpointer.list(threadId, { ...options, ns: '' });
  const cache = new Map<string, Record<string, unknown>>();
  const snapshots: StateSnapshot[] = new Array(records.length);
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i]!;
    const body = decodeBody(record);
    const values = await rebuildValues(checkpointer, topology, record, body, cache);
    cache.set(record.id, values);
    const stored = await checkpointer.get(threadId, { ns: '', id: record.id });
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
  return {
    values,
    next: body.next.map((t) => t.node),
    tasks: body.next.map((task) => {
      const write = loaded.taskWrites.get(task.id);
      return {
        id: task.id,
        node: task.node,
        done: write?.kind === 'output',
        interrupts: write?.kind === 'paused' ? write.interrupts : [],
      };
    }),
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
  /** Apply the values as if this node wrote them; the next tasks are then routed from it. */
  readonly asNode?: string;
  /** Update this checkpoint instead of the latest (a fork: history is kept). */
  readonly checkpointId?: string;
}

/**
 * Writes a new checkpoint with `values` applied through the reducers on top of the latest (or a given)
 * checkpoint, and returns its id. It claims the thread first, so it never races a run.
 *
 * @throws {CheckpointConflictError} when a run (or another update) holds the thread.
 */
export async function writeState(
  checkpointer: Checkpointer,
  topology: Topology,
  run: RunContext,
  threadId: string,
  values: unknown,
  options: UpdateStateOptions,
): Promise<string> {
  const claim = await checkpointer.claimThread(threadId);
  try {
    return await writeClaimed(checkpointer, topology, run, threadId, values, options);
  } finally {
    await claim.release();
  }
}

async function writeClaimed(
  checkpointer: Checkpointer,
  topology: Topology,
  run: RunContext,
  threadId: string,
  values: unknown,
  options: UpdateStateOptions,
): Promise<string> {
  const loaded = await loadCheckpoint(checkpointer, topology, { threadId, ns: '', id: options.checkpointId });
  if (!loaded) throw new WeftError('NOT_FOUND', `thread "${threadId}" has no checkpoint to update`);
  const node = options.asNode === undefined ? undefined : topology.byName.get(options.asNode);
  if (options.asNode !== undefined && !node && options.asNode !== END) {
    throw new WeftError(
      'INVALID_ARGUMENT',
      `updateState: asNode "${options.asNode}" is not a node (nodes: ${[...topology.byName.keys()].join(', ')})`,
    );
  }
  const update = await checkUpdate(topology.spec, 'the values given to updateState', values);
  const session = new CheckpointSession({ checkpointer, threadId, ns: '', durability: 'sync', parents: {} });
  const head = options.checkpointId === undefined ? undefined : await headSeq(checkpointer, threadId, '');
  session.continueFrom(loaded, false, head?.seq);
  session.markSource('update');
  const loop = new PregelLoop(topology, run, session.hooks());
  loop.values = loaded.values;
  loop.versions = { ...loaded.body.versions };
  loop.routing = loadRouting(topology, loaded.body.routing);
  // The kept tasks get new ids: continuing from the update must run them on the updated state, not reuse
  // what the old branch stored under their ids (task writes, subgraph checkpoints). A task waiting at an
  // `interrupt()` (or inside a paused nested graph) keeps its id and its pause: the update edits the
  // state around a question that is still open, and `Command({ resume })` still answers it.
  const pauses = openPauses(loaded.taskWrites);
  loop.tasks = renewTaskIds(topology, loadTasks(topology, loaded.body.next), sortableId(), (task) =>
    pauses.has(task.id),
  );
  loop.step = loaded.record.step + 1;
  const record = await loop.applyExternal(node, update);
  await session.hooks().afterStep?.(loop, record);
  await session.flush();
  const checkpointId = session.currentId as string;
  for (const task of loop.tasks) {
    const write = pauses.get(task.id);
    if (!write) continue;
    const payload = serializeTaskWrite(write);
    await checkpointer.putWrites({ threadId, ns: '', checkpointId, taskId: task.id, payload });
  }
  return checkpointId;
}

/**
 * Paused writes of tasks waiting for an answer, by task id. Static breakpoints are not among them:
 * continuing from an update passes a breakpoint, as `invoke(null)` after editing at a breakpoint should.
 */
function openPauses(writes: ReadonlyMap<string, TaskWrite>): Map<string, TaskWrite> {
  const open = new Map<string, TaskWrite>();
  for (const [taskId, write] of writes) {
    if (write.kind !== 'paused') continue;
    const breakpoint = write.interrupts.every(
      (interrupt) => interrupt.id === `${taskId}:before` || interrupt.id === `${taskId}:after`,
    );
    if (!breakpoint) open.set(taskId, write);
  }
  return open;
}
