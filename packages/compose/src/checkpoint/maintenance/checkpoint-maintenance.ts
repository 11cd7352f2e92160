/**
 * What a checkpoint store offers for the life of its data: enumerate threads, read a namespace's chain
 * without payloads, and delete checkpoints — guarded so that pruning never takes what a run needs. The
 * memory, SQLite and PostgreSQL checkpointers implement it; retention (`pruneCheckpoints`,
 * `startRetention`), `db stats` and `db prune` work on any store that does.
 */
import type { Checkpointer } from '../checkpointer.js';

/** One thread as the store holds it. */
export interface ThreadSummary {
  readonly threadId: string;
  /** Its namespaces (`''` is the root graph), sorted. */
  readonly namespaces: readonly string[];
  /** Checkpoints in every namespace. */
  readonly checkpoints: number;
  /** UTF-8 bytes of checkpoint payloads and metadata, plus task-write payloads. */
  readonly bytes: number;
  /** ISO-8601 time of its newest checkpoint. */
  readonly lastWriteAt: string;
  /** The `graph` the root head's metadata names (see `CheckpointRecord.metadata`), when it names one. */
  readonly graph: string | undefined;
}

/** Options of {@link MaintainableCheckpointer.listThreads}. */
export interface ListThreadsOptions {
  /** Only threads whose id sorts after this one (the last id of the previous page). */
  readonly after?: string;
  /** At most this many. */
  readonly limit?: number;
  /** Only this thread (none when it does not exist). */
  readonly threadId?: string;
}

/** A checkpoint's place in its chain, without its payload: what retention plans on. */
export interface CheckpointLink {
  readonly id: string;
  readonly seq: number;
  readonly parentId: string | null;
  readonly baseId: string;
  /** ISO-8601 creation time. */
  readonly createdAt: string;
  /** Whether a task write saved against it is a pause (an interrupt waiting for an answer). */
  readonly paused: boolean;
}

/** Why a guarded delete left a namespace alone. */
export type DeleteSkipped =
  /** A run holds the thread (see `Checkpointer.claimThread`). */
  | 'busy'
  /** The namespace's head is no longer the one the deletion was planned on. */
  | 'moved';

/**
 * What a guarded delete did: how many checkpoints went and, when it stopped early (a store deletes many
 * ids in several transactions, each guarded), why.
 */
export interface DeleteOutcome {
  readonly deleted: number;
  readonly skipped?: DeleteSkipped;
}

/** A checkpoint to turn into a snapshot, and the checkpoints to move onto it (see `rebaseCheckpoints`). */
export interface Rebase {
  readonly id: string;
  /** The snapshot payload: the same body with the checkpoint's full values. */
  readonly payload: string;
  /** `payloadChecksum(payload)`. */
  readonly checksum: string;
  /** Checkpoints built on the old snapshot through this one, whose `baseId` becomes `id`. */
  readonly descendants: readonly string[];
}

/** What a guarded rebase did: whether it happened, or why not. */
export interface RebaseOutcome {
  readonly rebased: boolean;
  readonly skipped?: DeleteSkipped;
}

/**
 * A checkpointer that can also be maintained.
 *
 * @example
 * ```ts
 * const checkpointer = new MemoryCheckpointer();
 * if (isMaintainable(checkpointer)) {
 *   for (const thread of await checkpointer.listThreads()) console.log(thread.threadId, thread.bytes);
 * }
 * ```
 */
export interface MaintainableCheckpointer extends Checkpointer {
  /** Every thread (or the one named `threadId`), ordered by id; `after` and `limit` page through them. */
  listThreads(options?: ListThreadsOptions): Promise<ThreadSummary[]>;
  /** The links of a thread's namespace, oldest first (by `seq`); empty when it has none. */
  listLinks(threadId: string, ns: string): Promise<CheckpointLink[]>;
  /**
   * Deletes checkpoints of one namespace and the task writes saved against them, in one transaction,
   * only when no run holds the thread and the namespace's head is still `headId`.
   */
  deleteCheckpoints(
    threadId: string,
    ns: string,
    ids: readonly string[],
    headId: string,
  ): Promise<DeleteOutcome>;
  /**
   * Makes checkpoint `rebase.id` a snapshot (its payload replaced by `rebase.payload`, its `baseId` its own
   * id) and moves the checkpoints in `rebase.descendants` onto it (their `baseId` becomes `rebase.id`), in
   * one transaction, under the same guard as {@link deleteCheckpoints}. Compaction calls it; the rows
   * before the new snapshot are then prunable.
   */
  rebaseCheckpoints(threadId: string, ns: string, rebase: Rebase, headId: string): Promise<RebaseOutcome>;
  /**
   * Deletes a whole thread when no run holds it and its newest checkpoint is older than `before`
   * (ISO-8601); resolves with whether it did.
   */
  deleteIdleThread(threadId: string, before: string): Promise<boolean>;
}

/**
 * Whether a checkpointer implements {@link MaintainableCheckpointer}.
 *
 * @example
 * ```ts
 * declare const checkpointer: Checkpointer;
 * if (!isMaintainable(checkpointer)) throw new Error('this store cannot be pruned');
 * ```
 */
export function isMaintainable(checkpointer: Checkpointer): checkpointer is MaintainableCheckpointer {
  const candidate = checkpointer as Partial<MaintainableCheckpointer>;
  return (
    typeof candidate.listThreads === 'function' &&
    typeof candidate.listLinks === 'function' &&
    typeof candidate.deleteCheckpoints === 'function' &&
    typeof candidate.rebaseCheckpoints === 'function' &&
    typeof candidate.deleteIdleThread === 'function'
  );
}

/**
 * The text every paused task write's payload starts with (a serialized `{ kind: 'paused', … }`): stores
 * find pending interrupts with it (`LIKE` in SQL) without decoding payloads.
 */
export const PAUSED_WRITE_PREFIX = '{"kind":"paused"';
