import { seqTakenError, threadClaimedError } from './checkpoint-conflicts.js';
import { checkpointExistsError } from './checkpoint-exists-error.js';
import type {
  Checkpointer,
  CheckpointRecord,
  GetCheckpointOptions,
  JsonValue,
  ListCheckpointsOptions,
  StoredCheckpoint,
  TaskWritesRecord,
  ThreadClaim,
} from './checkpointer.js';
import { metadataMatches } from './metadata-filter.js';
import { payloadChecksum } from './payload-checksum.js';

/** One stored checkpoint: the record without metadata, metadata as JSON text (as a database holds it). */
interface CheckpointRow {
  /** The record's columns (metadata is read from the two fields below). */
  record: Omit<CheckpointRecord, 'metadata'>;
  /** A handed-over record whose checksum (`''`) the store stamps when the row is first read. */
  stamp: boolean;
  /** Metadata of a record the engine handed over, not written as JSON until something reads it. */
  metadata: CheckpointRecord['metadata'] | undefined;
  /** The metadata as JSON text (`''` while {@link CheckpointRow.metadata} holds it unwritten). */
  metadataJson: string;
  /** UTF-8 bytes of the payload and metadata: counted when `storedBytes` first asks, not on every `put`. */
  bytes: number | undefined;
}

/** The row's metadata as JSON text, written now if it was kept unwritten. */
function metadataJsonOf(row: CheckpointRow): string {
  if (row.metadata !== undefined) {
    row.metadataJson = JSON.stringify(row.metadata);
    row.metadata = undefined;
  }
  return row.metadataJson;
}

interface NamespaceData {
  /** Checkpoint ids in ascending `seq` order. */
  readonly ids: string[];
  /** `seq` of each id in `ids`, at the same position. */
  readonly seqs: number[];
  readonly rows: Map<string, CheckpointRow>;
  /** checkpoint id → task id → writes, each map in insertion order. */
  readonly writes: Map<string, Map<string, TaskWritesRecord>>;
}

const encoder = new TextEncoder();

let handOver: (store: MemoryCheckpointer, record: CheckpointRecord) => void;

/**
 * The synchronous `put` of a {@link MemoryCheckpointer} whose `put` is its own (not overridden by a
 * subclass or a wrapper object), for a record the caller hands over: it never changes the record or its
 * metadata afterwards, so the store keeps them as they are. A record whose checksum is `''` leaves it to
 * the store, which stamps `payloadChecksum(payload)` when the row is first read (`get`, `list`): the same
 * checksum the record would have carried, its SHA-256 not paid on every step (a string in memory cannot
 * change at rest; what is read back is what a database row would hold). Internal: the engine's checkpoint session
 * stores a `sync`-durable step with it when nothing of the run is still being stored, so the step does
 * not wait for a promise (the in-memory store has nothing to wait for). Throws what `put` rejects with.
 * `undefined` for any other checkpointer.
 *
 * @example
 * ```ts
 * declare const checkpointer: Checkpointer;
 * declare const record: CheckpointRecord;
 * const putNow = syncPut(checkpointer);
 * if (putNow) putNow(record); // stored, or thrown
 * else await checkpointer.put(record);
 * ```
 */
export function syncPut(checkpointer: Checkpointer): ((record: CheckpointRecord) => void) | undefined {
  if (!(checkpointer instanceof MemoryCheckpointer)) return undefined;
  if (checkpointer.put !== MemoryCheckpointer.prototype.put) return undefined;
  return (record) => handOver(checkpointer, record);
}

function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/**
 * A checkpoint store in process memory: the default for tests and short-lived runs. Rows are kept as given
 * (payload strings, metadata as JSON text), so {@link MemoryCheckpointer.storedBytes} measures what a
 * database would hold, and reads return fresh copies like a database would. Checkpoints are ordered by
 * `seq`; a claim (`claimThread`) holds a thread for one run of this process.
 *
 * @example
 * ```ts
 * const checkpointer = new MemoryCheckpointer();
 * const app = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END)
 *   .compile({ checkpointer });
 * await app.invoke({ count: 1 }, { threadId: 'thread-1' });
 * const latest = await checkpointer.get('thread-1'); // { checkpoint, writes }
 * console.log(checkpointer.storedBytes('thread-1'));
 * ```
 */
export class MemoryCheckpointer implements Checkpointer {
  readonly #threads = new Map<string, Map<string, NamespaceData>>();
  /** Claimed threads and the token of their claim. */
  readonly #claims = new Map<string, symbol>();

  /**
   * @throws {WeftError} code `CHECKPOINT` when the id already exists in this thread and namespace.
   * @throws {CheckpointConflictError} when `record.seq` is already taken there.
   */
  async put(record: CheckpointRecord): Promise<void> {
    this.#put(record, false);
  }

  static {
    handOver = (store, record) => store.#put(record, true);
  }

  /**
   * Stores `record` at once. A record the engine hands over (`owned`) is kept as it is, its metadata
   * written as JSON and its checksum stamped (when `''`) when first read: the engine never changes a
   * record after `put`. Any other record is
   * copied and its metadata written now, so the caller may change it afterwards.
   */
  #put(record: CheckpointRecord, owned: boolean): void {
    const data = this.#namespace(record.threadId, record.ns, true);
    if (data.rows.has(record.id)) throw checkpointExistsError(record);
    const { seqs, ids } = data;
    const position = lowerBound(seqs, record.seq);
    if (seqs[position] === record.seq) throw seqTakenError(record);
    keepFlat(record.payload);
    const row: CheckpointRow = owned
      ? {
          record,
          stamp: record.checksum === '',
          metadata: record.metadata,
          metadataJson: '',
          bytes: undefined,
        }
      : {
          record: storedRecord(record),
          stamp: false,
          metadata: undefined,
          metadataJson: JSON.stringify(record.metadata),
          bytes: undefined,
        };
    data.rows.set(record.id, row);
    // A run appends: its seq is the thread's highest, so a push (a splice costs more) keeps the order.
    if (position === seqs.length) {
      ids.push(record.id);
      seqs.push(record.seq);
    } else {
      ids.splice(position, 0, record.id);
      seqs.splice(position, 0, record.seq);
    }
  }

  /** @throws {CheckpointConflictError} when another run of this process holds the thread. */
  async claimThread(threadId: string): Promise<ThreadClaim> {
    if (this.#claims.has(threadId)) throw threadClaimedError(threadId);
    const token = Symbol(threadId);
    this.#claims.set(threadId, token);
    return {
      release: async () => {
        if (this.#claims.get(threadId) === token) this.#claims.delete(threadId);
      },
    };
  }

  async putWrites(record: TaskWritesRecord): Promise<void> {
    const data = this.#namespace(record.threadId, record.ns, true);
    let tasks = data.writes.get(record.checkpointId);
    if (tasks === undefined) {
      tasks = new Map();
      data.writes.set(record.checkpointId, tasks);
    }
    tasks.set(record.taskId, { ...record });
  }

  async get(threadId: string, options: GetCheckpointOptions = {}): Promise<StoredCheckpoint | undefined> {
    const data = this.#namespace(threadId, options.ns ?? '', false);
    if (data === undefined) return undefined;
    const id = options.id ?? data.ids[data.ids.length - 1];
    const row = id === undefined ? undefined : data.rows.get(id);
    if (row === undefined) return undefined;
    const tasks = data.writes.get(row.record.id);
    const writes = tasks === undefined ? [] : Array.from(tasks.values(), (write) => ({ ...write }));
    return { checkpoint: toRecord(row), writes };
  }

  async list(threadId: string, options: ListCheckpointsOptions = {}): Promise<CheckpointRecord[]> {
    const data = this.#namespace(threadId, options.ns ?? '', false);
    const result: CheckpointRecord[] = [];
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    if (data === undefined || limit <= 0) return result;
    const start = options.before === undefined ? data.ids.length : positionOf(data, options.before);
    for (let index = start - 1; index >= 0 && result.length < limit; index--) {
      const row = data.rows.get(data.ids[index]!)!;
      if (options.baseId !== undefined && row.record.baseId !== options.baseId) continue;
      const record = toRecord(row);
      if (metadataMatches(record.metadata, options.filter)) result.push(record);
    }
    return result;
  }

  async deleteThread(threadId: string): Promise<void> {
    this.#threads.delete(threadId);
  }

  /**
   * UTF-8 bytes held for one thread (or all threads): checkpoint payloads and metadata JSON plus task-write
   * payloads. Use it to check that checkpoints grow with the change, not with the history.
   *
   * @example
   * ```ts
   * const checkpointer = new MemoryCheckpointer();
   * const app = new StateGraph(z.object({ message: z.string() }))
   *   .addNode('echo', (s) => ({ message: s.message.toUpperCase() }))
   *   .addEdge(START, 'echo')
   *   .addEdge('echo', END)
   *   .compile({ checkpointer });
   * const before = checkpointer.storedBytes('thread-1'); // 0
   * await app.invoke({ message: 'hi' }, { threadId: 'thread-1' });
   * console.log(checkpointer.storedBytes('thread-1') - before);
   * ```
   */
  storedBytes(threadId?: string): number {
    let total = 0;
    for (const [id, namespaces] of this.#threads) {
      if (threadId !== undefined && id !== threadId) continue;
      for (const data of namespaces.values()) {
        for (const row of data.rows.values())
          total += row.bytes ??= utf8Length(row.record.payload) + utf8Length(metadataJsonOf(row));
        for (const tasks of data.writes.values()) {
          for (const write of tasks.values()) total += utf8Length(write.payload);
        }
      }
    }
    return total;
  }

  #namespace(threadId: string, ns: string, create: true): NamespaceData;
  #namespace(threadId: string, ns: string, create: false): NamespaceData | undefined;
  #namespace(threadId: string, ns: string, create: boolean): NamespaceData | undefined {
    let namespaces = this.#threads.get(threadId);
    if (namespaces === undefined) {
      if (!create) return undefined;
      namespaces = new Map();
      this.#threads.set(threadId, namespaces);
    }
    let data = namespaces.get(ns);
    if (data === undefined && create) {
      data = { ids: [], seqs: [], rows: new Map(), writes: new Map() };
      namespaces.set(ns, data);
    }
    return data;
  }
}

/**
 * The record's columns without its metadata, as one literal: a rest-spread (`{ metadata, ...rest }`) and a
 * second spread cost more than the rest of `put`. A record without a checksum (an old row) stays without.
 */
function storedRecord(record: CheckpointRecord): Omit<CheckpointRecord, 'metadata'> {
  const { threadId, ns, id, seq, parentId, baseId, step, source, createdAt, payload, checksum } = record;
  return checksum === undefined
    ? { threadId, ns, id, seq, parentId, baseId, step, source, createdAt, payload }
    : { threadId, ns, id, seq, parentId, baseId, step, source, createdAt, payload, checksum };
}

/** Where {@link keepFlat} puts the character it reads, so the read is not optimized away. */
let firstCode = 0;

/**
 * Has V8 flatten a payload built by concatenation (reading a character of a concatenated string does):
 * the row then holds one flat string, not the tree of pieces the body was joined from — measured 788
 * against 1027 bytes held per checkpoint of the bench's loop. The checksum the engine no longer computes
 * on a handed-over record flattened it before.
 */
function keepFlat(payload: string): void {
  firstCode = payload.charCodeAt(0) | firstCode;
}

function toRecord(row: CheckpointRow): CheckpointRecord {
  if (row.stamp) {
    row.record = { ...row.record, checksum: payloadChecksum(row.record.payload) };
    row.stamp = false;
  }
  return { ...row.record, metadata: JSON.parse(metadataJsonOf(row)) as Record<string, JsonValue> };
}

/** Index of the first seq that is not less than `seq` (seqs ascending). */
function lowerBound(seqs: readonly number[], seq: number): number {
  let low = 0;
  let high = seqs.length;
  if (high === 0 || seqs[high - 1]! < seq) return high;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (seqs[middle]! < seq) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Position of a checkpoint in `ids` (0 for an unknown id, so nothing is listed before it). */
function positionOf(data: NamespaceData, id: string): number {
  const row = data.rows.get(id);
  return row === undefined ? 0 : lowerBound(data.seqs, row.record.seq);
}
