/**
 * Reads stored payloads back, refusing damaged ones: every checkpoint and task-writes payload is parsed,
 * its tagged values revived one state key at a time (so a malformed value names its key), and checked
 * against the checksum stored with it. Any failure is a {@link CheckpointCorruptError}; see `load.ts` for
 * the state-schema check of the rebuilt values.
 */
import { CheckpointCorruptError, type CorruptionKind } from '../errors/checkpoint-corrupt-error.js';
import type { CheckpointBody, TaskWrite } from './checkpoint-body.js';
import type { CheckpointRecord, TaskWritesRecord } from './checkpointer.js';
import { checksumMatches } from './payload-checksum.js';
import { reviveValue } from './tagged-json-decode.js';
import { TAG, Unserializable } from './tagged-json-encode.js';

const TAG_MARK = `"${TAG}"`;

interface Place {
  readonly threadId: string;
  readonly ns: string;
  readonly checkpointId: string;
  readonly taskId?: string | undefined;
}

/**
 * Names the state key a damaged payload most likely changed (see `suspectKey` in `state-check.ts`), for
 * the error of a payload that fails its checksum.
 */
export type SuspectKey = (entries: Iterable<readonly [key: string, value: unknown]>) => string | undefined;

/**
 * Decodes a checkpoint's payload and checks its checksum. `suspect` names the key of a payload that
 * fails its checksum, when one of its values looks wrong.
 *
 * @throws {CheckpointCorruptError} naming the checkpoint (and the key of a malformed value) when the
 * payload is not checkpoint text, holds a malformed tagged value, has an unknown format or fails its checksum.
 * @example
 * ```ts
 * const checkpointer = new MemoryCheckpointer();
 * const app = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END)
 *   .compile({ checkpointer });
 * await app.invoke({ count: 0 }, { threadId: 'thread-1' });
 * const stored = await checkpointer.get('thread-1');
 * if (stored) console.log(decodeCheckpointPayload(stored.checkpoint).next); // [] — the run reached END
 * ```
 */
export function decodeCheckpointPayload(record: CheckpointRecord, suspect?: SuspectKey): CheckpointBody {
  const place: Place = { threadId: record.threadId, ns: record.ns, checkpointId: record.id };
  const body = parse(record.payload, place) as CheckpointBody & Record<string, unknown>;
  if (typeof body !== 'object' || body === null || body.v !== 1)
    throw corrupt(place, 'encoding', `unknown format (v=${String((body as { v?: unknown } | null)?.v)})`);
  if (record.payload.includes(TAG_MARK)) reviveBody(body, place);
  verify(record.payload, record.checksum, place, () => suspect?.(storedEntries(body)));
  return body;
}

/**
 * Decodes the saved writes of one task and checks their checksum.
 *
 * @throws {CheckpointCorruptError} naming the checkpoint and task (and the key of a malformed value).
 * @example
 * ```ts
 * const checkpointer = new MemoryCheckpointer();
 * const app = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END)
 *   .compile({ checkpointer });
 * await app.invoke({ count: 0 }, { threadId: 'thread-1' });
 * const stored = await checkpointer.get('thread-1');
 * const writes = (stored?.writes ?? []).map((record) => decodeTaskWritesPayload(record)); // pending writes of the head
 * ```
 */
export function decodeTaskWritesPayload(record: TaskWritesRecord): TaskWrite {
  const place: Place = {
    threadId: record.threadId,
    ns: record.ns,
    checkpointId: record.checkpointId,
    taskId: record.taskId,
  };
  const write = parse(record.payload, place) as TaskWrite & Record<string, unknown>;
  if (typeof write !== 'object' || write === null)
    throw corrupt(place, 'encoding', 'the task writes are not an object');
  if (record.payload.includes(TAG_MARK)) {
    for (const field of Object.keys(write)) {
      if (field === 'output' && isPlainRecord(write.output)) reviveKeys(write.output, place);
      else write[field] = revive(write[field], place, undefined);
    }
  }
  verify(record.payload, record.checksum, place, () => undefined);
  return write;
}

function parse(text: string, place: Place): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw corrupt(place, 'encoding', `not valid JSON (${(error as Error).message})`, { cause: error });
  }
}

/** Revives the body's tagged values: state values and writes key by key, everything else as a whole. */
function reviveBody(body: Record<string, unknown>, place: Place): void {
  for (const field of Object.keys(body)) {
    const value = body[field];
    if (field === 'values' && isPlainRecord(value)) reviveKeys(value, place);
    else if (field === 'writes' && Array.isArray(value)) reviveWrites(value, place);
    else body[field] = revive(value, place, undefined);
  }
}

function reviveWrites(writes: unknown[], place: Place): void {
  for (const write of writes) {
    const entries = Array.isArray(write) ? (write[1] as unknown) : undefined;
    if (!Array.isArray(entries)) throw corrupt(place, 'encoding', 'a delta write is not [node, entries]');
    for (const entry of entries) {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string')
        throw corrupt(place, 'encoding', 'a delta write entry is not [key, value]');
      entry[1] = revive(entry[1], place, entry[0]);
    }
  }
}

function reviveKeys(record: Record<string, unknown>, place: Place): void {
  for (const key of Object.keys(record)) record[key] = revive(record[key], place, key);
}

function revive(value: unknown, place: Place, key: string | undefined): unknown {
  if (typeof value !== 'object' || value === null) return value;
  try {
    return reviveValue(value);
  } catch (error) {
    const reason = error instanceof Unserializable ? error.reason : String(error);
    throw corrupt(place, 'encoding', reason, { key, cause: error });
  }
}

function verify(
  payload: string,
  checksum: string | undefined,
  place: Place,
  suspect: () => string | undefined,
): void {
  if (checksumMatches(payload, checksum)) return;
  const key = suspect();
  const hint = key === undefined ? '' : ` (the value of "${key}" does not match the state schema)`;
  throw corrupt(
    place,
    'checksum',
    `the stored payload no longer matches its checksum ${checksum}; it was changed after it was written${hint}`,
    { key },
  );
}

/** The state values and written values of a body, as key/value pairs. */
function* storedEntries(body: CheckpointBody): Generator<readonly [string, unknown]> {
  if (body.values) yield* Object.entries(body.values);
  for (const [, entries] of body.writes) yield* entries;
}

/** A record of state keys (not a tagged value standing for one). */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Object.hasOwn(value, TAG);
}

/** The state key the corruption was found in, and the error that found it, when known. */
interface CorruptAt {
  readonly key?: string | undefined;
  readonly cause?: unknown;
}

function corrupt(
  place: Place,
  kind: CorruptionKind,
  reason: string,
  at: CorruptAt = {},
): CheckpointCorruptError {
  const { key, cause } = at;
  return new CheckpointCorruptError({
    record: place,
    kind,
    reason,
    key,
    taskId: place.taskId,
    cause,
  });
}
