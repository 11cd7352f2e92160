import { CheckpointCorruptError } from '../../errors/checkpoint-corrupt-error.js';
import type { Checkpointer, CheckpointRecord } from '../checkpointer.js';
import { decodeCheckpointPayload, decodeTaskWritesPayload } from '../decode-payload.js';
import type { ThreadSummary } from './checkpoint-maintenance.js';
import { maintainable } from './prune-checkpoints.js';

/** One problem `verifyCheckpoints` found. */
export interface VerifyIssue {
  readonly threadId: string;
  readonly ns: string;
  readonly checkpointId: string;
  /** The task whose saved writes are damaged, for a task-writes payload. */
  readonly taskId?: string;
  /** `checksum`/`encoding`: the payload is damaged; `chain`: a delta cannot reach its snapshot. */
  readonly kind: 'checksum' | 'encoding' | 'chain';
  readonly message: string;
}

/** What `verifyCheckpoints` read and found. */
export interface VerifyReport {
  readonly threads: number;
  readonly checkpoints: number;
  readonly taskWrites: number;
  /** Every problem found, in the order found; empty when everything checked out. */
  readonly issues: readonly VerifyIssue[];
}

/** Options of {@link verifyCheckpoints}. */
export interface VerifyOptions {
  /** Only these threads (all threads when omitted). */
  readonly threadIds?: readonly string[];
  /** Called with each issue as it is found (a report streams them). */
  readonly onIssue?: (issue: VerifyIssue) => void;
}

/**
 * Reads every stored checkpoint and task write and reports each one that is damaged — a payload that
 * fails its checksum or cannot be decoded, a delta whose parent chain does not reach its snapshot —
 * without stopping at the first. State-schema checks need the graph, and run when the graph loads a
 * checkpoint (a `CheckpointCorruptError` of kind `schema`).
 *
 * @throws {WeftError} code `INVALID_ARGUMENT` when the store cannot be maintained (see
 * `MaintainableCheckpointer`).
 * @example
 * ```ts
 * const checkpointer = new MemoryCheckpointer();
 * const report = await verifyCheckpoints(checkpointer);
 * for (const issue of report.issues) console.log(issue.threadId, issue.checkpointId, issue.message);
 * ```
 */
export async function verifyCheckpoints(
  checkpointer: Checkpointer,
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  const store = maintainable(checkpointer);
  const issues: VerifyIssue[] = [];
  const found = (issue: VerifyIssue): void => {
    issues.push(issue);
    options.onIssue?.(issue);
  };
  let threads = 0;
  let checkpoints = 0;
  let taskWrites = 0;
  for (const thread of await threadList(store, options.threadIds)) {
    threads++;
    for (const ns of thread.namespaces) {
      const records = (await store.list(thread.threadId, { ns })).reverse(); // oldest first
      checkpoints += records.length;
      const byId = new Map(records.map((record) => [record.id, record]));
      for (const record of records) {
        checkOne(() => decodeCheckpointPayload(record), found);
        const chain = chainProblem(record, byId);
        if (chain !== undefined)
          found({ threadId: record.threadId, ns, checkpointId: record.id, kind: 'chain', message: chain });
        const writes = (await store.get(thread.threadId, { ns, id: record.id }))?.writes ?? [];
        taskWrites += writes.length;
        for (const write of writes) checkOne(() => decodeTaskWritesPayload(write), found);
      }
    }
  }
  return { threads, checkpoints, taskWrites, issues };
}

async function threadList(
  store: ReturnType<typeof maintainable>,
  threadIds: readonly string[] | undefined,
): Promise<ThreadSummary[]> {
  if (threadIds === undefined) return store.listThreads();
  const found: ThreadSummary[] = [];
  for (const threadId of new Set(threadIds)) found.push(...(await store.listThreads({ threadId })));
  return found;
}

function checkOne(decode: () => unknown, found: (issue: VerifyIssue) => void): void {
  try {
    decode();
  } catch (error) {
    if (!CheckpointCorruptError.isInstance(error)) throw error;
    const { threadId, ns, checkpointId, taskId, kind } = error;
    found({
      threadId,
      ns,
      checkpointId,
      ...(taskId === undefined ? {} : { taskId }),
      kind: kind === 'checksum' ? 'checksum' : 'encoding',
      message: error.message,
    });
  }
}

/** Why a checkpoint's parents do not lead to its snapshot, or `undefined` when they do. */
function chainProblem(
  record: CheckpointRecord,
  byId: ReadonlyMap<string, CheckpointRecord>,
): string | undefined {
  const seen = new Set<string>();
  let current = record;
  while (current.id !== record.baseId) {
    seen.add(current.id);
    const parent = current.parentId === null ? undefined : byId.get(current.parentId);
    if (parent === undefined)
      return `checkpoint "${record.id}" of thread "${record.threadId}" cannot reach its snapshot "${record.baseId}": parent "${current.parentId}" of "${current.id}" is missing`;
    if (seen.has(parent.id))
      return `checkpoint "${record.id}" of thread "${record.threadId}" has a parent chain that loops at "${parent.id}"`;
    current = parent;
  }
  return undefined;
}
