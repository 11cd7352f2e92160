import { checkpointExistsError } from './checkpoint-exists-error.js';
import type {
  Checkpointer,
  CheckpointRecord,
  GetCheckpointOptions,
  JsonValue,
  ListCheckpointsOptions,
  StoredCheckpoint,
  TaskWritesRecord,
} from './checkpointer.js';
import { metadataMatches } from './metadata-filter.js';

/** One stored checkpoint: the record without metadata, metadata as JSON text (as a database holds it). */
interface CheckpointRow {
  readonly record: Omit<CheckpointRecord, 'metadata'>;
  readonly metadataJson: string;
  readonly bytes: number;
}

interface NamespaceData {
  /** Checkpoint ids in ascending order. */
  readonly ids: string[];
  readonly rows: Map<string, CheckpointRow>;
  /** checkpoint id → task id → writes, each map in insertion order. */
  readonly writes: Map<string, Map<string, TaskWritesRecord>>;
}

const encoder = new TextEncoder();

function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/**
 * A checkpoint store in process memory: the default for tests and short-lived runs. Rows are kept as given
 * (payload strings, metadata as JSON text), so {@link MemoryCheckpointer.storedBytes} measures what a
 * database would hold, and reads return fresh copies like a database would.
 *
 * @example
 * ```ts
 * const checkpointer = new MemoryCheckpointer();
 * await checkpointer.put(record);
 * const latest = await checkpointer.get('thread-1'); // { checkpoint, writes }
 * console.log(checkpointer.storedBytes('thread-1'));
 * ```
 */
export class MemoryCheckpointer implements Checkpointer {
  readonly #threads = new Map<string, Map<string, NamespaceData>>();

  /** @throws {WeftError} code `CHECKPOINT` when the id already exists in this thread and namespace. */
  async put(record: CheckpointRecord): Promise<void> {
    const data = this.#namespace(record.threadId, record.ns, true);
    if (data.rows.has(record.id)) throw checkpointExistsError(record);
    const { metadata, ...rest } = record;
    const metadataJson = JSON.stringify(metadata);
    const row: CheckpointRow = {
      record: { ...rest },
      metadataJson,
      bytes: utf8Length(record.payload) + utf8Length(metadataJson),
    };
    data.rows.set(record.id, row);
    insertSorted(data.ids, record.id);
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
    const start = options.before === undefined ? data.ids.length : lowerBound(data.ids, options.before);
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
   * const before = checkpointer.storedBytes('thread-1');
   * await app.invoke({ message: 'hi' }, { threadId: 'thread-1' });
   * console.log(checkpointer.storedBytes('thread-1') - before);
   * ```
   */
  storedBytes(threadId?: string): number {
    let total = 0;
    for (const [id, namespaces] of this.#threads) {
      if (threadId !== undefined && id !== threadId) continue;
      for (const data of namespaces.values()) {
        for (const row of data.rows.values()) total += row.bytes;
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
      data = { ids: [], rows: new Map(), writes: new Map() };
      namespaces.set(ns, data);
    }
    return data;
  }
}

function toRecord(row: CheckpointRow): CheckpointRecord {
  return { ...row.record, metadata: JSON.parse(row.metadataJson) as Record<string, JsonValue> };
}

/** Index of the first id that is not less than `id` (ids ascending). */
function lowerBound(ids: readonly string[], id: string): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ids[middle]! < id) low = middle + 1;
    else high = middle;
  }
  return low;
}

function insertSorted(ids: string[], id: string): void {
  const last = ids[ids.length - 1];
  if (last === undefined || last < id) ids.push(id);
  else ids.splice(lowerBound(ids, id), 0, id);
}
