/**
 * The storage contract every checkpoint store implements (memory, SQLite, PostgreSQL, your own).
 *
 * The engine hands stores already-serialized payloads (tagged JSON strings, see `serializer.ts`), so a
 * store never needs to know about channels, reducers or value types: it stores rows and answers lookups.
 * Every store must pass the shared conformance suite exported from `@weft/compose/testing`.
 */

/** Why a checkpoint was written. */
export type CheckpointSource = 'input' | 'loop' | 'update' | 'fork';

/** Plain JSON, as stored in checkpoint metadata (filterable by `list`). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One stored checkpoint: indexed columns plus an opaque serialized payload. */
export interface CheckpointRecord {
  /** The conversation or job this checkpoint belongs to. */
  readonly threadId: string;
  /** Namespace: `''` for the root graph, a path such as `outer:3a|inner:7f` for nested subgraphs. */
  readonly ns: string;
  /** Unique id within the thread and namespace. Its text says nothing about order: see {@link seq}. */
  readonly id: string;
  /**
   * Position in the thread/namespace's chain: 1 for the first checkpoint, then one more than the head it
   * was written over (a fork too: it becomes the new head). Stores order by it, never by ids or clocks,
   * and keep it unique per thread and namespace: a second checkpoint with the same `seq` is a writer that
   * raced another one, and `put` rejects it with a {@link CheckpointConflictError}.
   */
  readonly seq: number;
  /** The checkpoint this one continues from, or `null` for the first of a thread/namespace. */
  readonly parentId: string | null;
  /**
   * The id of the full-snapshot checkpoint this one builds on (its own id when it is a snapshot).
   * Stores index it so the engine can load a snapshot and its deltas in two lookups.
   */
  readonly baseId: string;
  /** Superstep number (-1 for the input checkpoint). */
  readonly step: number;
  /** Why it was written. */
  readonly source: CheckpointSource;
  /** ISO-8601 creation time. */
  readonly createdAt: string;
  /** Plain JSON metadata; `list({ filter })` matches its top-level keys by equality. */
  readonly metadata: Readonly<Record<string, JsonValue>>;
  /** The serialized checkpoint body (values or deltas, next tasks, interrupts). */
  readonly payload: string;
  /**
   * `sha256:` and the hex SHA-256 of `payload`'s UTF-8 bytes, stamped by the engine and checked on every
   * read (a mismatch is a {@link CheckpointCorruptError}). Stores keep it as given and return it unchanged;
   * it is absent on rows written before checksums existed, which load unchecked.
   */
  readonly checksum?: string;
}

/** Writes of one task that finished inside a step that has not completed (yet). */
export interface TaskWritesRecord {
  readonly threadId: string;
  readonly ns: string;
  /** The checkpoint the step started from. */
  readonly checkpointId: string;
  /** Deterministic task id within that step. */
  readonly taskId: string;
  /** Serialized writes (and, for a paused task, its interrupt state). */
  readonly payload: string;
  /**
   * `sha256:` and the hex SHA-256 of `payload`'s UTF-8 bytes, stamped by the engine and checked on every
   * read (a mismatch is a {@link CheckpointCorruptError}). Stores keep it as given and return it unchanged;
   * it is absent on rows written before checksums existed, which load unchecked.
   */
  readonly checksum?: string;
}

/** A checkpoint together with the task writes saved against it. */
export interface StoredCheckpoint {
  readonly checkpoint: CheckpointRecord;
  /** Task writes stored with `putWrites` against this checkpoint, in insertion order. */
  readonly writes: readonly TaskWritesRecord[];
}

/** Options of {@link Checkpointer.get}. */
export interface GetCheckpointOptions {
  /** Namespace; `''` (the root graph) when omitted. */
  readonly ns?: string;
  /** A specific checkpoint; the latest of the thread/namespace when omitted. */
  readonly id?: string;
}

/** Options of {@link Checkpointer.list}. */
export interface ListCheckpointsOptions {
  /** Namespace; `''` when omitted. */
  readonly ns?: string;
  /** At most this many, newest first. */
  readonly limit?: number;
  /** Only checkpoints stored before this checkpoint (lower `seq`); none when the id is unknown. */
  readonly before?: string;
  /** Only checkpoints built on this snapshot (see {@link CheckpointRecord.baseId}). */
  readonly baseId?: string;
  /** Only checkpoints whose metadata has these top-level values (JSON equality). */
  readonly filter?: Readonly<Record<string, JsonValue>>;
}

/**
 * A thread held by one writer (see {@link Checkpointer.claimThread}); release it when the run ends.
 *
 * @example
 * ```ts
 * const checkpointer = new MemoryCheckpointer();
 * const claim: ThreadClaim = await checkpointer.claimThread('thread-1'); // a second claim now fails
 * try {
 *   // load the head, run, put checkpoints
 * } finally {
 *   await claim.release();
 * }
 * ```
 */
export interface ThreadClaim {
  /** Gives the thread back; releasing twice is harmless. */
  release(): Promise<void>;
  /**
   * The claim's fencing token, numbered by the store: every claim of a thread gets a higher epoch than
   * the one before, and the store refuses the writes of a claim whose epoch is no longer the thread's.
   * Absent for a store whose claims cannot be taken over (one process's memory).
   */
  readonly epoch?: number;
  /**
   * Aborted, with a {@link CheckpointConflictError} naming the thread, as soon as the store learns that
   * this claim was lost (its lock connection died, another writer took the thread over, a write was
   * refused for a stale epoch). The engine aborts the run with it: no further step starts.
   */
  readonly lost?: AbortSignal;
  /**
   * Checks with the store that this claim still holds the thread, before each step starts; on loss it
   * aborts {@link ThreadClaim.lost}. Optional: a store whose loss is always reported on `lost` leaves it out.
   */
  verify?(): void;
}

/**
 * A checkpoint store.
 *
 * @example
 * ```ts
 * const saver = new MemoryCheckpointer();
 * const app = new StateGraph(z.object({ count: z.number() }))
 *   .addNode('add', (s) => ({ count: s.count + 1 }))
 *   .addEdge(START, 'add')
 *   .addEdge('add', END)
 *   .compile({ checkpointer: saver });
 * await app.invoke({ count: 1 }, { threadId: 'thread-1' });
 * await saver.get('thread-1'); // the thread's latest checkpoint, with its writes
 * ```
 */
export interface Checkpointer {
  /**
   * Stores a checkpoint, atomically conditional on its `seq` being free in its thread and namespace.
   *
   * @throws {WeftError} code `CHECKPOINT` when the id already exists there (nothing is replaced).
   * @throws {CheckpointConflictError} when another checkpoint already holds `record.seq` (a racing writer).
   */
  put(record: CheckpointRecord): Promise<void>;
  /** Stores (or replaces, for the same task id) the writes of one task against a checkpoint. */
  putWrites(record: TaskWritesRecord): Promise<void>;
  /**
   * Optional: stores the writes of several tasks at once, in order, as `putWrites` would one by one (a
   * store with transactions makes it one). The engine uses it for task writes that queued up while an
   * earlier store call ran (nodes of a DAG that finished together); without it, it calls `putWrites`.
   */
  putWritesBatch?(records: readonly TaskWritesRecord[]): Promise<void>;
  /** Loads one checkpoint (the latest when no id is given) with its task writes; `undefined` if absent. */
  get(threadId: string, options?: GetCheckpointOptions): Promise<StoredCheckpoint | undefined>;
  /**
   * Claims a thread for one writer until the claim is released or its holder dies (process exit, lost
   * connection): the engine claims before it loads the head and runs any node, so of two runs (or a run
   * and an `updateState`) on one thread, exactly one proceeds. Claims are per thread, all namespaces.
   *
   * @throws {CheckpointConflictError} when a live writer holds the thread.
   */
  claimThread(threadId: string): Promise<ThreadClaim>;
  /** Lists checkpoints newest first (by `seq`). */
  list(threadId: string, options?: ListCheckpointsOptions): Promise<CheckpointRecord[]>;
  /** Deletes every checkpoint and task write of a thread, in every namespace. */
  deleteThread(threadId: string): Promise<void>;
  /** Releases connections or file handles, if the store holds any. */
  close?(): Promise<void>;
}
