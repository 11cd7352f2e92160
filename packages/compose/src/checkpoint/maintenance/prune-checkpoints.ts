import { WeftError } from '../../errors/weft-error.js';
import type { Checkpointer } from '../checkpointer.js';
import {
  type DeleteSkipped,
  isMaintainable,
  type MaintainableCheckpointer,
  type ThreadSummary,
} from './checkpoint-maintenance.js';
import { checkRetentionPolicy, planRetention, type RetentionPolicy } from './retention-policy.js';

/**
 * The policy of each thread: one for all, or chosen per thread (by its id, or by the graph that wrote it:
 * `thread.graph`); `undefined` leaves a thread alone.
 */
export type RetentionPolicies = RetentionPolicy | ((thread: ThreadSummary) => RetentionPolicy | undefined);

/** Options of {@link pruneCheckpoints}. */
export interface PruneOptions {
  /** What each thread keeps. */
  readonly policy: RetentionPolicies;
  /** Report what would go without deleting anything. */
  readonly dryRun?: boolean;
  /** Only these threads (all threads when omitted). */
  readonly threadIds?: readonly string[];
  /** The clock ages are measured by (milliseconds since the epoch); `Date.now` by default. */
  readonly now?: () => number;
}

/** A namespace a prune left alone, and why (it is tried again on the next prune). */
export interface PruneSkip {
  readonly threadId: string;
  readonly ns: string;
  readonly reason: DeleteSkipped;
}

/** What a prune did (or, in a dry run, would do). */
export interface PruneReport {
  readonly dryRun: boolean;
  /** Threads examined. */
  readonly threads: number;
  /** Threads deleted whole by `threadTtlMs`. */
  readonly deletedThreads: readonly string[];
  /** Checkpoints deleted from threads that stay (not counting those of deleted threads). */
  readonly deletedCheckpoints: number;
  /** Namespaces left alone because a run held the thread or moved its head meanwhile. */
  readonly skipped: readonly PruneSkip[];
}

const PAGE = 500;

/**
 * Applies retention to a store: deletes idle threads (`threadTtlMs`) and, from the others, the
 * checkpoints their policy drops (see {@link RetentionPolicy}). Each namespace is deleted from in one
 * transaction, and only while no run holds its thread and its head is the one the deletion was planned
 * on, so a running or paused run never loses what it reads; a namespace skipped for that is reported
 * and tried again on the next prune.
 *
 * @throws {WeftError} code `INVALID_ARGUMENT` when the store cannot be maintained or a policy is invalid.
 * @example
 * ```ts
 * const checkpointer = new MemoryCheckpointer();
 * const preview = await pruneCheckpoints(checkpointer, { policy: { keepLast: 20 }, dryRun: true });
 * console.log(`${preview.deletedCheckpoints} checkpoints would go`);
 * await pruneCheckpoints(checkpointer, { policy: { keepLast: 20 } });
 * ```
 */
export async function pruneCheckpoints(
  checkpointer: Checkpointer,
  options: PruneOptions,
): Promise<PruneReport> {
  const store = maintainable(checkpointer);
  const policyOf = policyChooser(options.policy);
  const now = (options.now ?? Date.now)();
  const dryRun = options.dryRun === true;
  const deletedThreads: string[] = [];
  const skipped: PruneSkip[] = [];
  let deletedCheckpoints = 0;
  let threads = 0;
  for await (const thread of threadsOf(store, options.threadIds)) {
    const policy = policyOf(thread);
    threads++;
    if (policy === undefined) continue;
    checkRetentionPolicy(policy);
    if (policy.threadTtlMs !== undefined && Date.parse(thread.lastWriteAt) < now - policy.threadTtlMs) {
      const before = new Date(now - policy.threadTtlMs).toISOString();
      if (dryRun || (await store.deleteIdleThread(thread.threadId, before))) {
        deletedThreads.push(thread.threadId);
        continue;
      }
    }
    for (const ns of thread.namespaces) {
      const links = await store.listLinks(thread.threadId, ns);
      const drop = planRetention(links, policy, now);
      const head = links.at(-1);
      if (drop.length === 0 || head === undefined) continue;
      if (dryRun) {
        deletedCheckpoints += drop.length;
        continue;
      }
      const outcome = await store.deleteCheckpoints(thread.threadId, ns, drop, head.id);
      if (outcome.skipped !== undefined)
        skipped.push({ threadId: thread.threadId, ns, reason: outcome.skipped });
      deletedCheckpoints += outcome.deleted;
    }
  }
  return { dryRun, threads, deletedThreads, deletedCheckpoints, skipped };
}

/**
 * The store as a {@link MaintainableCheckpointer}.
 *
 * @throws {WeftError} code `INVALID_ARGUMENT` when it does not implement the maintenance methods.
 */
export function maintainable(checkpointer: Checkpointer): MaintainableCheckpointer {
  if (isMaintainable(checkpointer)) return checkpointer;
  throw new WeftError(
    'INVALID_ARGUMENT',
    `${checkpointer.constructor.name} cannot be maintained: it does not implement listThreads, listLinks, deleteCheckpoints, rebaseCheckpoints and deleteIdleThread (see MaintainableCheckpointer)`,
  );
}

function policyChooser(policies: RetentionPolicies): (thread: ThreadSummary) => RetentionPolicy | undefined {
  if (typeof policies === 'function') return policies;
  checkRetentionPolicy(policies);
  return () => policies;
}

/** The threads to examine: the named ones (those that exist), or every thread page by page. */
async function* threadsOf(
  store: MaintainableCheckpointer,
  threadIds: readonly string[] | undefined,
): AsyncGenerator<ThreadSummary> {
  if (threadIds !== undefined) {
    for (const threadId of new Set(threadIds)) {
      const [thread] = await store.listThreads({ threadId });
      if (thread !== undefined) yield thread;
    }
    return;
  }
  let after: string | undefined;
  for (;;) {
    const page = await store.listThreads(after === undefined ? { limit: PAGE } : { after, limit: PAGE });
    yield* page;
    if (page.length < PAGE) return;
    after = page.at(-1)?.threadId;
  }
}
