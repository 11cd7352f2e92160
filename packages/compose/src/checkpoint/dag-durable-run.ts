import { WeftError } from '../errors/weft-error.js';
import { applyStateWrites } from '../pregel/apply.js';
import { type DagDurability, DagLoop } from '../pregel/dag-loop.js';
import { dagPlanOf, START_INDEX } from '../pregel/dag-plan.js';
import { withWrites } from '../pregel/drive.js';
import { PregelLoop } from '../pregel/loop.js';
import type { LoopResult } from '../pregel/loop-hooks.js';
import { runContext } from '../pregel/run-context.js';
import { SubgraphWrites } from '../pregel/subgraph-writes.js';
import type { Task } from '../pregel/task.js';
import type { ResumeValues } from '../pregel/task-context.js';
import { type CompiledNode, END_INDEX, type Topology } from '../pregel/topology.js';
import { isCommand } from '../vocabulary/command.js';
import { START } from '../vocabulary/constants.js';
import type { CheckpointSession } from './checkpoint-session.js';
import type { DagRestored } from './dag-restore.js';
import { restoreDag } from './dag-restore.js';
import { durableContext } from './durable-context.js';
import type { DurableResult, DurableRun } from './durable-target.js';
import type { LoadedCheckpoint } from './load.js';
import { entriesOf } from './write-encoding.js';

/** The loaded head and how the run continues from it (decided by `runDurable`). */
export interface DagStart {
  readonly loaded: LoadedCheckpoint | undefined;
  readonly fork: boolean;
  readonly headSeq: number | undefined;
  readonly session: CheckpointSession;
  readonly input: unknown;
  readonly continuation: boolean;
}

/**
 * The loop state a {@link CheckpointSession} reads when it writes a DAG checkpoint: the session is the
 * one Pregel runs use (sequence numbers, snapshots or deltas, durability modes, checksums), handed the
 * DAG's state in the shape of a superstep loop.
 */
class DagCheckpointView extends PregelLoop {
  readonly resumed = new Map<string, ResumeValues>();

  override resumedFor(taskId: string): ResumeValues | undefined {
    return this.resumed.get(taskId);
  }
}

/**
 * Runs a DAG-mode graph with checkpoints (ADR 023). A DAG run is one unit between checkpoints: an
 * `input` checkpoint when it starts, each node's output stored as a task write against the head the
 * moment the node finishes (what a crash keeps), and a checkpoint when the run pauses or ends, which
 * commits the finished nodes' writes in topological order. A node's `interrupt()` pauses the run: no
 * new node starts, the running siblings finish and are recorded, and the paused nodes (and the ready
 * nodes not started) are the checkpoint's next tasks. A continuation rebuilds the run from its chain
 * (see `restoreDag`) and replays finished nodes without running them again.
 */
export async function runDagDurable(call: DurableRun, start: DagStart): Promise<DurableResult> {
  const { topology, run, target } = call;
  const { checkpointer, threadId } = target;
  const { loaded, session } = start;
  if (target.breakpoints) {
    throw new WeftError(
      'INVALID_ARGUMENT',
      `graph "${topology.name}" runs in DAG mode, which pauses only with interrupt(); static breakpoints (interruptBefore/interruptAfter) need mode 'pregel'`,
    );
  }
  let resumeById: ReadonlyMap<string, unknown> = target.resumeById ?? new Map();
  const durable = durableContext(target, session, {
    resumeById: () => resumeById,
    storesTaskCalls: false,
  });
  const dagRun = runContext({ ...run, durable });
  const view = new DagCheckpointView(topology, dagRun);
  view.restore({ step: loaded ? loaded.record.step + 1 : -1 });
  const hooks = session.hooks();
  let restored: DagRestored;
  if (start.continuation) {
    if (!loaded) {
      throw new WeftError(
        'NOT_FOUND',
        `thread "${threadId}" has no checkpoint to continue from; start it with an input`,
      );
    }
    const input = isCommand(start.input) ? start.input : null;
    restored = await restoreDag({
      checkpointer,
      topology,
      loaded,
      fork: start.fork,
      input,
      inherited: resumeById,
    });
    resumeById = restored.byId;
    if (start.fork) {
      view.restore({ values: loaded.values });
      await session.saveFork(view);
      view.restore({ step: view.step + 1 });
      restored = { ...restored, prefix: session.currentId as string };
    }
  } else {
    restored = await beginRun(topology, view, hooks, start);
    restored = { ...restored, prefix: session.currentId as string };
  }
  const dag = new DagLoop(topology, dagPlanOf(topology), dagRun, durability(topology, restored, view, hooks));
  const result = await dag.execute(restored.input, restored.startValues);
  if (result.status === 'interrupted' || dag.executed > 0 || start.fork) {
    await commit({ topology, view, session, dag, restored, result });
  }
  await session.flush();
  return withWrites(result, call.recordWrites ? dag.stateWrites() : undefined, session.currentId);
}

/** Writes the `input` checkpoint of a new run and returns the (empty) restored state it starts from. */
async function beginRun(
  topology: Topology,
  view: DagCheckpointView,
  hooks: ReturnType<CheckpointSession['hooks']>,
  start: Pick<DagStart, 'input' | 'loaded'>,
): Promise<DagRestored> {
  const { input, loaded } = start;
  const state = topology.state;
  let startValues: Record<string, unknown> | undefined;
  let changed: readonly string[] = [];
  if (state) {
    const applied = applyStateWrites(state, loaded?.values ?? { ...state.defaults }, [START], [input]);
    startValues = applied.values;
    changed = applied.changed;
    view.restore({ values: startValues });
  }
  // The nodes START leads to are the checkpoint's next tasks: a thread whose run stopped here (a crash,
  // a failure) shows them, and a nested run is not taken for a finished one.
  const prefix = hooks.taskPrefix?.(view) ?? '';
  view.restore({
    tasks: (dagPlanOf(topology).successors.get(START_INDEX) ?? [])
      .filter((index) => index >= 0)
      .map((index) => ({
        node: index,
        input: undefined,
        hasInput: false,
        id: `${prefix}:${(topology.nodes[index] as CompiledNode).name}:0`,
      })),
  });
  await hooks.afterStep?.(view, { writes: [[START, storedWrite(topology, input)]], changed });
  view.restore({ tasks: [], step: view.step + 1 });
  return {
    input,
    startValues,
    done: new Map(),
    committed: new Set(),
    resume: new Map(),
    memo: new Map(),
    taskIds: new Map(),
    prefix: '',
    byId: new Map(),
  };
}

function durability(
  topology: Topology,
  restored: DagRestored,
  view: DagCheckpointView,
  hooks: ReturnType<CheckpointSession['hooks']>,
): DagDurability {
  const { prefix, taskIds } = restored;
  const taskId = (index: number): string =>
    taskIds.get(index) ?? `${prefix}:${(topology.nodes[index] as CompiledNode).name}:0`;
  const taskOf = (index: number): Task => ({
    node: index,
    input: undefined,
    hasInput: false,
    id: taskId(index),
  });
  for (const [index, values] of restored.resume) view.resumed.set(taskId(index), values);
  return {
    done: restored.done,
    resume: restored.resume,
    memo: restored.memo,
    taskId,
    nodeDone: (index, output) => {
      void hooks.taskDone?.(view, taskOf(index), output);
    },
    nodeFailed: (index, error) => hooks.taskFailed?.(view, taskOf(index), error),
  };
}

interface CommitCall {
  readonly topology: Topology;
  readonly view: DagCheckpointView;
  readonly session: CheckpointSession;
  readonly dag: DagLoop;
  readonly restored: DagRestored;
  readonly result: LoopResult;
}

/**
 * Writes the checkpoint of a pause or of the end: the finished nodes not committed yet, in topological
 * order; at a pause, the paused and held nodes as next tasks and the pauses as task writes. Only the
 * first checkpoint after the input may be a delta: later nodes can sort before committed ones, and a
 * reducer must see them in topological order, so later ones are full snapshots.
 */
async function commit(call: CommitCall): Promise<void> {
  const { topology, view, session, dag, restored, result } = call;
  const hooks = session.hooks();
  const segment = dag.doneInOrder().filter((index) => !restored.committed.has(index));
  const writes = segment.map(
    (index) =>
      [(topology.nodes[index] as CompiledNode).name, storedWrite(topology, dag.writeOf(index))] as const,
  );
  const changed = new Set<string>();
  for (const [, write] of writes) for (const [key] of entriesOf(write)) changed.add(key);
  if (topology.state) view.restore({ values: result.output as Record<string, unknown> });
  else if (result.status === 'done')
    view.routing.inbox.set(END_INDEX, { sources: [topology.name], values: [result.output] });
  const pause = result.status === 'interrupted' ? dag.pauseState() : undefined;
  const task = (index: number): Task => ({
    node: index,
    input: undefined,
    hasInput: false,
    id: restored.taskIds.get(index) ?? `${restored.prefix}:${(topology.nodes[index] as CompiledNode).name}:0`,
  });
  view.restore({
    tasks: pause ? [...pause.paused.map(([index]) => task(index)), ...pause.held.map(task)] : [],
  });
  if (restored.committed.size > 0 || session.currentId !== restored.prefix) session.forceSnapshot();
  await hooks.afterStep?.(view, { writes, changed: [...changed] });
  if (pause) {
    const outputs: unknown[] = pause.paused.map(([, paused]) => paused);
    await hooks.paused?.(view, outputs, result.interrupts);
  }
}

/** A node's write in the form checkpoints store it: state updates as they are, dataflow values boxed. */
function storedWrite(topology: Topology, value: unknown): unknown {
  return topology.state ? value : new SubgraphWrites([['__output__', value]]);
}
