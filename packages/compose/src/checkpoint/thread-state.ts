import { pendingInterrupts } from '../interrupt/resume.js';
import { applyStateWrites } from '../pregel/apply.js';
import type { PendingInterrupt } from '../pregel/task.js';
import type { Topology } from '../pregel/topology.js';
import { reopenPauses } from './answered-pauses.js';
import type { TaskErrorInfo } from './checkpoint-body.js';
import type { Checkpointer, CheckpointSource, JsonValue, ListCheckpointsOptions } from './checkpointer.js';
import {
  decodeBody,
  decodeTaskWrites,
  type LoadedCheckpoint,
  loadCheckpoint,
  rebuildValues,
} from './load.js';
import { loadRouting } from './loop-state.js';
import { restoreOutput } from './write-encoding.js';

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
  const snapshot = snapshotOf(topology, checkpointId === undefined ? loaded : reopenPauses(loaded));
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
    snapshots[i] = snapshotOf(
      topology,
      reopenPauses({ record, body, values, taskWrites: decodeTaskWrites(stored?.writes ?? []) }),
    );
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
      // A node renamed since the checkpoint was written shows under the name it runs as now.
      node: topology.versioning.renamedNodes?.get(task.node) ?? task.node,
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
