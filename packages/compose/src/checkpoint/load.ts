import { CheckpointCorruptError } from '../errors/checkpoint-corrupt-error.js';
import { WeftError } from '../errors/weft-error.js';
import type { Topology } from '../pregel/topology.js';
import { checkStateVersion, migrateValues } from '../state/migration/migrate-state.js';
import { reduceKey } from '../state/reduce-key.js';
import type { CheckpointBody, TaskWrite } from './checkpoint-body.js';
import type { Checkpointer, CheckpointRecord, TaskWritesRecord } from './checkpointer.js';
import { decodeCheckpointPayload, decodeTaskWritesPayload } from './decode-payload.js';
import { checkLoadedState, suspectKey } from './state-check.js';

/** A checkpoint read back: its record, decoded body, rebuilt state values and saved task writes. */
export interface LoadedCheckpoint {
  readonly record: CheckpointRecord;
  readonly body: CheckpointBody;
  readonly values: Record<string, unknown>;
  /** Task writes saved against this checkpoint, by task id (last write per task wins). */
  readonly taskWrites: ReadonlyMap<string, TaskWrite>;
}

/** Where to load from. */
export interface LoadTarget {
  readonly threadId: string;
  readonly ns: string;
  /** A specific checkpoint; the latest when omitted. */
  readonly id?: string | undefined;
}

/**
 * Loads a checkpoint and rebuilds its state: the base snapshot plus the writes of every checkpoint
 * from the base to the target, replayed through the graph's reducers.
 *
 * @throws WeftError `NOT_FOUND` when a specific id does not exist; `CHECKPOINT` when the chain is broken
 * or loops (every walk is bounded: it fails at the first checkpoint it would visit twice).
 * @throws {CheckpointCorruptError} when a payload fails its checksum or decoding, or a rebuilt state key
 * does not match the graph's state schema.
 * @throws {StateVersionError} when the checkpoint was written at a newer state version than the graph's,
 * or an older one's migration is missing or fails (older ones are migrated: see `compile({ migrations })`).
 */
export async function loadCheckpoint(
  checkpointer: Checkpointer,
  topology: Topology,
  target: LoadTarget,
): Promise<LoadedCheckpoint | undefined> {
  const stored = await checkpointer.get(
    target.threadId,
    target.id === undefined ? { ns: target.ns } : { ns: target.ns, id: target.id },
  );
  if (!stored) {
    if (target.id !== undefined)
      throw new WeftError('NOT_FOUND', `thread "${target.threadId}" has no checkpoint "${target.id}"`);
    return undefined;
  }
  const body = decodeBody(stored.checkpoint, topology);
  const values = await rebuildValues({ checkpointer, topology }, stored.checkpoint, body);
  return { record: stored.checkpoint, body, values, taskWrites: decodeTaskWrites(stored.writes) };
}

/**
 * Decodes stored task writes by task id (the last write of a task wins).
 *
 * @throws {CheckpointCorruptError} when a payload is damaged (see {@link decodeTaskWritesPayload}).
 */
export function decodeTaskWrites(records: readonly TaskWritesRecord[]): Map<string, TaskWrite> {
  const writes = new Map<string, TaskWrite>();
  for (const record of records) writes.set(record.taskId, decodeTaskWritesPayload(record));
  return writes;
}

/**
 * Decodes a checkpoint's payload.
 *
 * @throws {CheckpointCorruptError} when the payload is damaged (see {@link decodeCheckpointPayload}).
 */
export function decodeBody(record: CheckpointRecord, topology?: Topology): CheckpointBody {
  return decodeCheckpointPayload(record, topology && ((entries) => suspectKey(topology, entries)));
}

/** Where {@link rebuildValues} reads: the store, the graph, and values already rebuilt by checkpoint id. */
export interface ValuesSource {
  readonly checkpointer: Checkpointer;
  readonly topology: Topology;
  /** Values rebuilt earlier (a history read walks a chain once), by checkpoint id. */
  readonly cache?: Map<string, Record<string, unknown>> | undefined;
}

/** Rebuilds the values of a checkpoint from its base and the deltas in between. */
export async function rebuildValues(
  source: ValuesSource,
  record: CheckpointRecord,
  body: CheckpointBody,
): Promise<Record<string, unknown>> {
  const { checkpointer, topology, cache } = source;
  const upToDate = checkStateVersion(topology, record) === topology.versioning.version;
  if (body.values) return checked(topology, { ...body.values }, record, upToDate);
  // Cached values are migrated ones: an older checkpoint's writes apply to its parent's values as stored.
  const cached = upToDate && record.parentId ? cache?.get(record.parentId) : undefined;
  if (cached) {
    // The parent's values were checked when they were cached: only the keys written here can be wrong.
    const values = applyWrites(topology, cached, body, record.id);
    checkLoadedState(topology, values, record, writtenKeys(body));
    return values;
  }
  const chain = await checkpointer.list(record.threadId, { ns: record.ns, baseId: record.baseId });
  const byId = new Map(chain.map((r) => [r.id, r]));
  const path: CheckpointBody[] = [body];
  const seen = new Set<string>([record.id]);
  const ids: string[] = [record.id];
  let current = record;
  while (current.id !== record.baseId) {
    const parent = current.parentId ? byId.get(current.parentId) : undefined;
    if (!parent)
      throw new CheckpointCorruptError({
        record: { threadId: record.threadId, ns: record.ns, checkpointId: current.id },
        kind: 'chain',
        reason: `it lost its parent chain to base "${record.baseId}"`,
      });
    // Every step goes to a checkpoint of this base not seen yet, so the walk ends within the chain.
    if (seen.has(parent.id)) throw chainLoopError(record, parent.id);
    seen.add(parent.id);
    current = parent;
    path.push(decodeBody(current, topology));
    ids.push(current.id);
  }
  const base = path.pop() as CheckpointBody;
  let values: Record<string, unknown> = { ...(base.values ?? {}) };
  for (let i = path.length - 1; i >= 0; i--)
    values = applyWrites(topology, values, path[i] as CheckpointBody, ids[i]);
  return checked(topology, values, record, upToDate);
}

/**
 * Values migrated to the graph's state version (when `current` is false), after the state-schema check
 * of every key.
 */
async function checked(
  topology: Topology,
  values: Record<string, unknown>,
  record: CheckpointRecord,
  current: boolean,
): Promise<Record<string, unknown>> {
  const migrated = current ? values : await migrateValues(topology, record, values);
  checkLoadedState(topology, migrated, record);
  return migrated;
}

function writtenKeys(body: CheckpointBody): Set<string> {
  const keys = new Set<string>();
  for (const [, entries] of body.writes) for (const [key] of entries) keys.add(key);
  return keys;
}

/**
 * The error of a parent chain that comes back to a checkpoint it already passed (a corrupted store):
 * loading would never reach the base.
 */
export function chainLoopError(
  record: Pick<CheckpointRecord, 'id' | 'threadId' | 'ns'>,
  repeated: string,
): CheckpointCorruptError {
  return new CheckpointCorruptError({
    record: { threadId: record.threadId, ns: record.ns, checkpointId: record.id },
    kind: 'chain',
    reason: `its parent chain comes back to checkpoint "${repeated}"`,
  });
}

/** Applies a delta checkpoint's writes to values (copy-on-write), through the graph's reducers. */
export function applyWrites(
  topology: Topology,
  values: Record<string, unknown>,
  body: CheckpointBody,
  checkpointId?: string,
): Record<string, unknown> {
  if (body.writes.length === 0) return values;
  const next = { ...values };
  const reducers = topology.state?.reducers ?? {};
  for (const [node, entries] of body.writes) {
    for (const [key, value] of entries) {
      const reducer = reducers[key];
      next[key] = reducer ? reduceKey(reducer, next[key], value, { node, key, checkpointId }) : value;
    }
  }
  return next;
}
