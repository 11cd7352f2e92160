import { dagEffectMemo } from '../effects/carry-effects.js';
import { CheckpointCorruptError } from '../errors/checkpoint-corrupt-error.js';
import { planResume } from '../interrupt/resume.js';
import { applyStateWrites } from '../pregel/apply.js';
import { SubgraphWrites } from '../pregel/subgraph-writes.js';
import type { Task } from '../pregel/task.js';
import type { ResumeValues } from '../pregel/task-context.js';
import type { Topology } from '../pregel/topology.js';
import { type Command, isCommand } from '../vocabulary/command.js';
import { START } from '../vocabulary/constants.js';
import type { CheckpointBody } from './checkpoint-body.js';
import type { Checkpointer, CheckpointRecord } from './checkpointer.js';
import { chainLoopError, decodeBody, type LoadedCheckpoint, loadCheckpoint } from './load.js';
import { restoreOutput } from './write-encoding.js';

/** Where a DAG run stands at a checkpoint: what it started from, what finished, what paused. */
export interface DagRestored {
  /** The run's input (START's write). */
  readonly input: unknown;
  /** The state the run started from: the state before the run, the input, and external updates. */
  readonly startValues: Record<string, unknown> | undefined;
  /** Outputs of finished nodes by node index. */
  readonly done: Map<number, unknown>;
  /** Nodes whose writes are in a checkpoint already (the others are committed by the next one). */
  readonly committed: Set<number>;
  /** Resume values and `ctx.once` memos of paused nodes, by node index. */
  readonly resume: Map<number, ResumeValues>;
  readonly memo: Map<number, ReadonlyMap<string, unknown>>;
  /** Task ids of paused nodes (kept, so their interrupt ids and subgraph namespaces stay the same). */
  readonly taskIds: Map<number, string>;
  /** Prefix of the other nodes' task ids: the id of the run's input (or fork) checkpoint. */
  readonly prefix: string;
  /** Resume values for every pending interrupt, nested ones included, by interrupt id. */
  readonly byId: ReadonlyMap<string, unknown>;
}

/** How to read a DAG checkpoint back. */
export interface DagRestoreOptions {
  readonly checkpointer: Checkpointer;
  readonly topology: Topology;
  readonly loaded: LoadedCheckpoint;
  /** Continuing an older checkpoint: its unfinished nodes run again (paused ones keep their pause). */
  readonly fork: boolean;
  /** The continuation's input: `Command({ resume })` answers the pauses; `null` keeps them pending. */
  readonly input: Command | null | undefined;
  /** Resume values inherited from an enclosing run, by interrupt id. */
  readonly inherited: ReadonlyMap<string, unknown>;
}

/** One checkpoint of the run's chain, oldest first after the walk. */
interface Link {
  readonly record: CheckpointRecord;
  readonly body: CheckpointBody;
}

/**
 * Rebuilds a DAG run from a checkpoint (ADR 023): walks the chain back to the run's `input` checkpoint,
 * collecting the writes each checkpoint committed (one entry per finished node), adds the outputs of
 * nodes that finished after the head was written (task writes, unless forking), and plans the resume of
 * the paused nodes.
 *
 * @throws CheckpointCorruptError kind `chain` when the chain has no input checkpoint or loops; `INVALID_RESUME` when
 * a resume value does not match the pending interrupts.
 */
export async function restoreDag(options: DagRestoreOptions): Promise<DagRestored> {
  const { checkpointer, topology, loaded, fork } = options;
  const chain = await walkRun(checkpointer, topology, loaded);
  const done = new Map<number, unknown>();
  const committed = new Set<number>();
  const external: Array<readonly [string, unknown]> = [];
  let input: unknown;
  let prefix: string | undefined;
  for (const { record, body } of chain) {
    if (record.source === 'input' || record.source === 'fork') prefix = record.id;
    for (const [name, entries] of body.writes) {
      if (name === START && record.source === 'input') {
        input = fromEntries(topology, entries);
        continue;
      }
      const node = name === START ? undefined : topology.byName.get(name);
      if (!node) {
        // `updateState` without `asNode`: applied to the state the run started from.
        external.push(...entries);
        continue;
      }
      // `updateState(values, asNode)` amends that node's write (or finishes it, when it had not run).
      const previous = done.get(node.index);
      done.set(
        node.index,
        previous === undefined ? fromEntries(topology, entries) : amend(previous, entries),
      );
      committed.add(node.index);
    }
  }
  const command = isCommand(options.input) ? options.input : undefined;
  const answering = command?.hasResume === true;
  const paused: Task[] = [];
  const taskIds = new Map<number, string>();
  for (const [taskId, write] of loaded.taskWrites) {
    const node = topology.byName.get(write.node);
    if (!node || done.has(node.index)) continue;
    if (write.kind === 'output' && !fork) done.set(node.index, restoreOutput(write.output));
    if (write.kind === 'paused' && (!fork || answering)) {
      paused.push({ node: node.index, input: undefined, hasInput: false, id: taskId });
      taskIds.set(node.index, taskId);
    }
  }
  const answer = answering
    ? { kind: 'value' as const, value: command?.resume }
    : { kind: 'inherited' as const, byId: options.inherited };
  const plan = planResume(loaded, paused, answer);
  const resume = new Map<number, ResumeValues>();
  const memo = new Map<number, ReadonlyMap<string, unknown>>();
  for (const task of paused) {
    const values = plan.resume.get(task.id);
    if (values) resume.set(task.node, values);
    const remembered = plan.memo.get(task.id);
    if (remembered) memo.set(task.node, remembered);
  }
  dagEffectMemo(loaded.taskWrites, (name) => topology.byName.get(name)?.index, memo);
  return {
    input,
    startValues: await startValues(options, chain[0] as Link, input, external),
    done,
    committed,
    resume,
    memo,
    taskIds,
    prefix: prefix ?? loaded.record.id,
    byId: new Map([...options.inherited, ...plan.byId]),
  };
}

/** The checkpoints of the run `loaded` belongs to, from its `input` checkpoint to `loaded`. */
async function walkRun(
  checkpointer: Checkpointer,
  topology: Topology,
  loaded: LoadedCheckpoint,
): Promise<Link[]> {
  const chain: Link[] = [{ record: loaded.record, body: loaded.body }];
  const seen = new Set<string>([loaded.record.id]);
  let record = loaded.record;
  while (record.source !== 'input') {
    const parentId = record.parentId;
    if (parentId === null) {
      throw new CheckpointCorruptError({
        record: { threadId: record.threadId, ns: record.ns, checkpointId: loaded.record.id },
        kind: 'chain',
        reason: 'it belongs to no DAG run: its chain has no input checkpoint',
      });
    }
    if (seen.has(parentId)) throw chainLoopError(loaded.record, parentId);
    seen.add(parentId);
    const stored = await checkpointer.get(record.threadId, { ns: record.ns, id: parentId });
    if (!stored) {
      throw new CheckpointCorruptError({
        record: { threadId: record.threadId, ns: record.ns, checkpointId: record.id },
        kind: 'chain',
        reason: `it lost its parent "${parentId}"`,
      });
    }
    record = stored.checkpoint;
    chain.push({ record, body: decodeBody(record, topology) });
  }
  return chain.reverse();
}

/** The state before the run (the input checkpoint's parent, or the defaults) with the input and updates. */
async function startValues(
  options: Pick<DagRestoreOptions, 'checkpointer' | 'topology'>,
  first: Link,
  input: unknown,
  external: ReadonlyArray<readonly [string, unknown]>,
): Promise<Record<string, unknown> | undefined> {
  const { checkpointer, topology } = options;
  const state = topology.state;
  if (!state) return undefined;
  const { parentId, threadId, ns } = first.record;
  const before =
    parentId === null
      ? undefined
      : await loadCheckpoint(checkpointer, topology, { threadId, ns, id: parentId });
  let values = applyStateWrites(state, before?.values ?? { ...state.defaults }, [START], [input]).values;
  if (external.length > 0)
    values = applyStateWrites(state, values, [START], [new SubgraphWrites(external)]).values;
  return values;
}

/** A node's write as stored (`[key, value]` entries) back as an output the DAG loop can replay. */
function fromEntries(topology: Topology, entries: ReadonlyArray<readonly [string, unknown]>): unknown {
  if (topology.state) return new SubgraphWrites(entries);
  const [first] = entries;
  return entries.length === 1 && first?.[0] === '__output__' ? first[1] : Object.fromEntries(entries);
}

function amend(previous: unknown, entries: ReadonlyArray<readonly [string, unknown]>): unknown {
  const before =
    previous instanceof SubgraphWrites
      ? previous.writes
      : typeof previous === 'object' && previous !== null
        ? Object.entries(previous)
        : [];
  return new SubgraphWrites([...before, ...entries]);
}
