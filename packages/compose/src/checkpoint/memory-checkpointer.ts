import { threadClaimedError } from './checkpoint-conflicts.js';
import type {
  Checkpointer,
  CheckpointRecord,
  GetCheckpointOptions,
  ListCheckpointsOptions,
  StoredCheckpoint,
  TaskWritesRecord,
  ThreadClaim,
} from './checkpointer.js';
import type { DeferredCheckpoint } from './deferred-checkpoint.js';
import {
  type CheckpointLink,
  type DeleteOutcome,
  type ListThreadsOptions,
  type MaintainableCheckpointer,
  PAUSED_WRITE_PREFIX,
  type Rebase,
  type RebaseOutcome,
  type ThreadSummary,
} from './maintenance/checkpoint-maintenance.js';
import { MemoryNamespace, metadataJsonOf, toRecord } from './memory-namespace.js';
import { metadataMatches } from './metadata-filter.js';

const encoder = new TextEncoder();

let handOver: (store: MemoryCheckpointer, record: CheckpointRecord | DeferredCheckpoint) => void;

/**
 * The synchronous `put` of a {@link MemoryCheckpointer} whose `put` is its own (not overridden by a
 * subclass or a wrapper object), for a record the caller hands over: it never changes the record or its
 * metadata afterwards, so the store keeps them as they are. A record whose checksum is `''` leaves it to
 * the store, which stamps `payloadChecksum(payload)` when the row is first read (`get`, `list`): the same
 * checksum the record would have carried, its SHA-256 not paid on every step (a string in memory cannot
 * change at rest; what is read back is what a database row would hold). A {@link DeferredCheckpoint} is kept
 * as it is and made into its record (`materialize`) when the row is first read. Internal: the engine's checkpoint session
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
export function syncPut(
  checkpointer: Checkpointer,
): ((record: CheckpointRecord | DeferredCheckpoint) => void) | undefined {
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
export class MemoryCheckpointer implements MaintainableCheckpointer {
  readonly #threads = new Map<string, Map<string, MemoryNamespace>>();
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
   * written as JSON and its checksum stamped (when `''`) when first read, a deferred checkpoint made into
   * its record then: the engine never changes a record after `put`. Any other record is copied and its
   * metadata written now, so the caller may change it afterwards.
   */
  #put(record: CheckpointRecord | DeferredCheckpoint, owned: boolean): void {
    // Only the engine hands over deferred checkpoints: a public record is never taken for one.
    const { threadId, ns } = owned && 'run' in record ? record.run : (record as CheckpointRecord);
    this.#namespace(threadId, ns, true).add(record, owned);
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
    const position = options.id === undefined ? data.size - 1 : (data.position(options.id) ?? -1);
    if (position < 0) return undefined;
    const row = data.row(position);
    const tasks = data.writes.get(row.record.id);
    const writes = tasks === undefined ? [] : Array.from(tasks.values(), (write) => ({ ...write }));
    return { checkpoint: toRecord(row), writes };
  }

  async list(threadId: string, options: ListCheckpointsOptions = {}): Promise<CheckpointRecord[]> {
    const data = this.#namespace(threadId, options.ns ?? '', false);
    const result: CheckpointRecord[] = [];
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    if (data === undefined || limit <= 0) return result;
    // An unknown `before` id lists nothing.
    const start = options.before === undefined ? data.size : (data.position(options.before) ?? 0);
    for (let index = start - 1; index >= 0 && result.length < limit; index--) {
      if (options.baseId !== undefined && data.baseIdAt(index) !== options.baseId) continue;
      const record = toRecord(data.row(index));
      if (metadataMatches(record.metadata, options.filter)) result.push(record);
    }
    return result;
  }

  async deleteThread(threadId: string): Promise<void> {
    this.#threads.delete(threadId);
  }

  async listThreads(options: ListThreadsOptions = {}): Promise<ThreadSummary[]> {
    const ids = (options.threadId === undefined ? [...this.#threads.keys()] : [options.threadId])
      .filter((id) => this.#threads.has(id) && (options.after === undefined || id > options.after))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, options.limit ?? Number.POSITIVE_INFINITY);
    return ids.map((threadId) => this.#summary(threadId));
  }

  async listLinks(threadId: string, ns: string): Promise<CheckpointLink[]> {
    const data = this.#namespace(threadId, ns, false);
    const links: CheckpointLink[] = [];
    for (let position = 0; position < (data?.size ?? 0); position++) {
      const { id, seq, parentId, baseId, createdAt } = (data as MemoryNamespace).row(position).record;
      const tasks = (data as MemoryNamespace).writes.get(id);
      const paused =
        tasks !== undefined && [...tasks.values()].some((w) => w.payload.startsWith(PAUSED_WRITE_PREFIX));
      links.push({ id, seq, parentId, baseId, createdAt, paused });
    }
    return links;
  }

  async deleteCheckpoints(
    threadId: string,
    ns: string,
    ids: readonly string[],
    headId: string,
  ): Promise<DeleteOutcome> {
    if (this.#claims.has(threadId)) return { deleted: 0, skipped: 'busy' };
    const data = this.#namespace(threadId, ns, false);
    if (data === undefined || data.size === 0) return { deleted: 0, skipped: 'moved' };
    if (data.row(data.size - 1).record.id !== headId) return { deleted: 0, skipped: 'moved' };
    return { deleted: data.remove(new Set(ids.filter((id) => id !== headId))) };
  }

  async rebaseCheckpoints(
    threadId: string,
    ns: string,
    rebase: Rebase,
    headId: string,
  ): Promise<RebaseOutcome> {
    if (this.#claims.has(threadId)) return { rebased: false, skipped: 'busy' };
    const data = this.#namespace(threadId, ns, false);
    if (data === undefined || data.size === 0 || data.row(data.size - 1).record.id !== headId)
      return { rebased: false, skipped: 'moved' };
    return { rebased: data.rebase(rebase) };
  }

  async deleteIdleThread(threadId: string, before: string): Promise<boolean> {
    if (this.#claims.has(threadId) || !this.#threads.has(threadId)) return false;
    if (this.#summary(threadId).lastWriteAt >= before) return false;
    this.#threads.delete(threadId);
    return true;
  }

  #summary(threadId: string): ThreadSummary {
    const namespaces = this.#threads.get(threadId) ?? new Map<string, MemoryNamespace>();
    let checkpoints = 0;
    let lastWriteAt = '';
    let graph: string | undefined;
    for (const data of namespaces.values()) {
      checkpoints += data.size;
      if (data.size === 0) continue;
      const head = data.row(data.size - 1);
      if (head.record.createdAt > lastWriteAt) lastWriteAt = head.record.createdAt;
      if (data.ns === '') {
        const named = toRecord(head).metadata.graph;
        graph = typeof named === 'string' ? named : undefined;
      }
    }
    const ns = [...namespaces.keys()].sort();
    return { threadId, namespaces: ns, checkpoints, bytes: this.storedBytes(threadId), lastWriteAt, graph };
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
        for (let position = 0; position < data.size; position++) {
          const row = data.row(position);
          total += row.bytes ??= utf8Length(row.record.payload) + utf8Length(metadataJsonOf(row));
        }
        for (const tasks of data.writes.values()) {
          for (const write of tasks.values()) total += utf8Length(write.payload);
        }
      }
    }
    return total;
  }

  #namespace(threadId: string, ns: string, create: true): MemoryNamespace;
  #namespace(threadId: string, ns: string, create: false): MemoryNamespace | undefined;
  #namespace(threadId: string, ns: string, create: boolean): MemoryNamespace | undefined {
    let namespaces = this.#threads.get(threadId);
    if (namespaces === undefined) {
      if (!create) return undefined;
      namespaces = new Map();
      this.#threads.set(threadId, namespaces);
    }
    let data = namespaces.get(ns);
    if (data === undefined && create) {
      data = new MemoryNamespace(threadId, ns);
      namespaces.set(ns, data);
    }
    return data;
  }
}
