import type { StepRecord } from '../pregel/loop-hooks.js';
import { PlannedTask, type Task } from '../pregel/task.js';
import type { CompiledNode, Topology } from '../pregel/topology.js';
import { START } from '../vocabulary/constants.js';
import { joinBody, type LoopRest, plainBodyRest } from './body-rest.js';
import type { CheckpointRecord, CheckpointSource, JsonValue } from './checkpointer.js';
import { jsonQuote } from './json-quote.js';
import { payloadChecksum } from './payload-checksum.js';

/** What every deferred checkpoint of one run's namespace shares (one object per checkpoint session). */
export interface DeferredRun {
  readonly threadId: string;
  readonly ns: string;
  /** The enclosing graphs' checkpoint ids, by namespace (`metadata.parents`). */
  readonly parents: Readonly<Record<string, string>>;
  /** The run's topology, for the next tasks' node names. */
  readonly topology: Topology;
  /** The length of each node's name as JSON text, by node number, filled as {@link payloadLength} asks. */
  readonly quotedLengths: number[];
}

/**
 * A checkpoint of a `sync`-durable step handed to the in-memory store as its parts, not its text: the
 * step's writes and (for a full snapshot) values as text (the parts made from values the user may change
 * later), its next tasks as node numbers (see {@link deferredNext}) and the numbers and names around
 * them. The store makes the {@link CheckpointRecord} from it when the row is first read
 * ({@link materialize}), deterministically, so the record read is the one `put` would have stored; a
 * step pays neither the payload text, the metadata object nor the task ids, and keeps no object of the
 * loop alive. Only for a step whose routing is empty and whose next tasks are plain planned tasks of
 * this checkpoint. The fields it shares with the record are the record's; its `createdAt` is `isoNow`
 * of the clock read its id was made from (one string a millisecond).
 */
export interface DeferredCheckpoint
  extends Pick<CheckpointRecord, 'id' | 'seq' | 'parentId' | 'baseId' | 'step' | 'source' | 'createdAt'> {
  /** The channels' values as stored (`serializeChannels`) for a full snapshot, else `undefined`. */
  readonly values: string | undefined;
  /** The step's writes as stored (`stepWritesText`). */
  readonly writes: string;
  /** The nodes that wrote in the step (`metadata.writes`): one name alone, or the list. */
  readonly nodes: string | readonly string[];
  /** The next tasks' nodes by position (one number for one task), see {@link deferredNext}. */
  readonly next: number | readonly number[];
  /** `sinceBase.bytes` and `sinceBase.count` of the body. */
  readonly sinceBytes: number;
  readonly sinceCount: number;
  readonly run: DeferredRun;
}

const noTasks: readonly number[] = Object.freeze([]);

/**
 * The loop's next tasks as node numbers by position, when the checkpoint `id` can hold them so: routing
 * empty, every task a planned task of this checkpoint (id `id:node:position`, at its position) without
 * an input or a pipe. One task gives its node number alone; `undefined` when they cannot be kept so.
 *
 * @example
 * ```ts
 * declare const loop: Parameters<typeof deferredNext>[0]; // after a step whose next task is `b` (node 2)
 * deferredNext(loop, 'c1'); // 2
 * ```
 */
export function deferredNext(loop: LoopRest, id: string): number | readonly number[] | undefined {
  const { routing, tasks } = loop;
  if (routing.barriers.size !== 0 || routing.inbox.size !== 0 || routing.deferred.size !== 0)
    return undefined;
  if (tasks.length === 1) return plannedNode(tasks[0] as Task, id, 0);
  if (tasks.length === 0) return noTasks;
  const nodes: number[] = [];
  for (let position = 0; position < tasks.length; position++) {
    const node = plannedNode(tasks[position] as Task, id, position);
    if (node === undefined) return undefined;
    nodes.push(node);
  }
  return nodes;
}

/** The task's node when it is a plain planned task of checkpoint `id` at `position`. */
function plannedNode(task: Task, id: string, position: number): number | undefined {
  if (!(task instanceof PlannedTask) || task.hasInput) return undefined;
  return task.prefix === id && task.position === position ? task.node : undefined;
}

/** The next tasks a deferred checkpoint stands for, ids and all (`id:node:position`). */
function nextTasks(deferred: DeferredCheckpoint): Task[] {
  const { next, id, run } = deferred;
  const nodes = typeof next === 'number' ? [next] : next;
  return nodes.map((node, position) => {
    const name = (run.topology.nodes[node] as CompiledNode).name;
    return { node, input: undefined, hasInput: false, id: `${id}:${name}:${position}` };
  });
}

/**
 * The names of the nodes that wrote in a step, START left out (a checkpoint's `metadata.writes`): the
 * name itself when one node wrote, so a deferred checkpoint keeps no list for the usual step.
 *
 * @example
 * ```ts
 * writtenNodes({ writes: [['a', { n: 1 }]], changed: ['n'] }); // 'a'
 * writtenNodes({ writes: [['a', {}], ['b', {}]], changed: [] }); // ['a', 'b']
 * ```
 */
export function writtenNodes(record: StepRecord): string | string[] {
  const { writes } = record;
  const first = writes.length === 1 ? (writes[0] as StepRecord['writes'][number])[0] : START;
  if (first !== START) return first;
  const nodes: string[] = [];
  for (let index = 0; index < writes.length; index++) {
    const node = (writes[index] as StepRecord['writes'][number])[0];
    if (node !== START) nodes.push(node);
  }
  return nodes;
}

/**
 * A checkpoint's metadata: its step, source, the nodes that wrote (see {@link writtenNodes}), the
 * enclosing graphs' checkpoint ids, and the name and state version of the graph that wrote it. The one
 * place its keys and their order are written.
 *
 * @example
 * ```ts
 * const graph = { name: 'support', versioning: { version: 2, migrations: new Map() } };
 * checkpointMetadata(3, 'loop', 'a', { parents: {}, graph });
 * // { step: 3, source: 'loop', writes: ['a'], parents: {}, graph: 'support', stateVersion: 2 }
 * ```
 */
export function checkpointMetadata(
  step: number,
  source: CheckpointSource,
  nodes: string | readonly string[],
  origin: CheckpointOrigin,
): Record<string, JsonValue> {
  const writes = typeof nodes === 'string' ? [nodes] : (nodes as string[]);
  const { parents, graph } = origin;
  return { step, source, writes, parents, graph: graph.name, stateVersion: graph.versioning.version };
}

/** Where a run's checkpoints come from: the enclosing graphs' checkpoint ids and the graph writing them. */
export interface CheckpointOrigin {
  readonly parents: Readonly<Record<string, string>>;
  readonly graph: GraphStamp;
}

/** What every checkpoint records of the graph that wrote it: its name and state version. */
export type GraphStamp = Pick<Topology, 'name' | 'versioning'>;

/**
 * The record a deferred checkpoint stands for, with its payload's checksum: what the checkpoint
 * session's general path builds from the same step (same payload text, metadata, `createdAt`).
 *
 * @example
 * ```ts
 * declare const deferred: DeferredCheckpoint;
 * const record = materialize(deferred); // record.payload: '{"v":1,"writes":…,"next":…}'
 * ```
 */
export function materialize(deferred: DeferredCheckpoint): CheckpointRecord {
  const { run, step, source } = deferred;
  const sinceBase = { bytes: deferred.sinceBytes, count: deferred.sinceCount };
  const rest = plainBodyRest(run.topology, nextTasks(deferred), sinceBase);
  const payload = joinBody(deferred.values, deferred.writes, rest);
  return {
    threadId: run.threadId,
    ns: run.ns,
    id: deferred.id,
    seq: deferred.seq,
    parentId: deferred.parentId,
    baseId: deferred.baseId,
    step,
    source,
    createdAt: deferred.createdAt,
    metadata: checkpointMetadata(step, source, deferred.nodes, { parents: run.parents, graph: run.topology }),
    payload,
    checksum: payloadChecksum(payload),
  };
}

/** `{"v":1,` `"writes":` `,`, less the rest's first character, which `joinBody` drops. */
const BODY_FRAME = 7 + 9 + 1 - 1;
/** `"values":` and `,` around a full snapshot's values. */
const VALUES_FRAME = 9 + 1;
/** The fixed text of a plain rest (see `plainBodyRest`) around its tasks and its two numbers. */
const REST_FRAME =
  '{"next":[],"routing":{"barriers":[],"inbox":[],"deferred":[]},"sinceBase":{"bytes":,"count":}}'.length;
/** A task's text around its quoted id and name: `{"id":` `,"node":` `}`. */
const TASK_FRAME = 6 + 8 + 1;

/**
 * The length of the payload {@link materialize} makes, counted without making it: what the checkpoint
 * session needs of a full snapshot's payload (`baseBytes`, which decides the next snapshot). A task id
 * is `id:name:position` quoted: the checkpoint id (letters, digits and `-`), `:` and digits need no
 * escape and a name's characters are escaped one by one, so the quoted id is as long as the quoted
 * name plus the checkpoint id, two colons and the position's digits.
 *
 * @example
 * ```ts
 * declare const deferred: DeferredCheckpoint;
 * payloadLength(deferred) === materialize(deferred).payload.length; // true
 * ```
 */
export function payloadLength(deferred: DeferredCheckpoint): number {
  const { next, run, values } = deferred;
  let length =
    BODY_FRAME +
    (values === undefined ? 0 : VALUES_FRAME + values.length) +
    deferred.writes.length +
    REST_FRAME +
    digits(deferred.sinceBytes) +
    digits(deferred.sinceCount);
  const count = typeof next === 'number' ? 1 : next.length;
  for (let position = 0; position < count; position++) {
    const node = typeof next === 'number' ? next : (next[position] as number);
    const name = quotedLength(run, node);
    length += (position === 0 ? 0 : 1) + TASK_FRAME + 2 * name + deferred.id.length + 2 + digits(position);
  }
  return length;
}

/** The length of node `node`'s name as JSON text, from the run's cache. */
function quotedLength(run: DeferredRun, node: number): number {
  let length = run.quotedLengths[node];
  if (length === undefined) {
    length = jsonQuote((run.topology.nodes[node] as CompiledNode).name).length;
    run.quotedLengths[node] = length;
  }
  return length;
}

/** Decimal digits of a non-negative integer. */
function digits(value: number): number {
  let count = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) count++;
  return count;
}
