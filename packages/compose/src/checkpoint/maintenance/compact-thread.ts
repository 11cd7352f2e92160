import { WeftError } from '../../errors/weft-error.js';
import { type CompiledGraph, graphRuntime } from '../../graph/compiled-graph.js';
import { storedStateVersion } from '../../state/migration/migrate-state.js';
import { loadCheckpoint } from '../load.js';
import { payloadChecksum } from '../payload-checksum.js';
import { serializeChannels } from '../serializer.js';
import type { CheckpointLink, DeleteSkipped } from './checkpoint-maintenance.js';
import { maintainable, pruneCheckpoints } from './prune-checkpoints.js';

/** Options of {@link compactThread}. */
export interface CompactOptions {
  /** How many of the newest checkpoints stay as they are (a positive integer); the rest fold into a snapshot. */
  readonly keepLast: number;
}

/** What a compaction did. */
export interface CompactReport {
  /** The checkpoint made a snapshot, when one was (already a snapshot: none). */
  readonly snapshot: string | undefined;
  /** Checkpoints moved onto the new snapshot. */
  readonly rebased: number;
  /** Older checkpoints deleted (nothing kept needs them any more). */
  readonly deleted: number;
  /** Why nothing was done: a run holds the thread, or its head moved meanwhile (try again). */
  readonly skipped?: DeleteSkipped;
}

/**
 * Compacts a thread's root namespace into a snapshot plus its newest `keepLast` checkpoints: the oldest
 * of those becomes a full snapshot (its values rebuilt through the graph's reducers), the newer ones are
 * rebuilt from it, and everything before it that no kept checkpoint needs is deleted (pending interrupts
 * and abandoned branches stay, as retention keeps them). `getState`, `getStateHistory` (of what is kept)
 * and resuming read the same values as before. Guarded like pruning: a thread a run holds is skipped.
 *
 * @throws {WeftError} code `INVALID_ARGUMENT` for a bad `keepLast`, a graph without a checkpointer or a
 * store that cannot be maintained.
 * @example
 * ```ts
 * const graph = new StateGraph(z.object({ n: z.number() }))
 *   .addNode('inc', (s) => ({ n: s.n + 1 }))
 *   .addEdge(START, 'inc')
 *   .addConditionalEdges('inc', (s) => (s.n < 100 ? 'inc' : END))
 *   .compile({ checkpointer: new MemoryCheckpointer(), maxSteps: 200 });
 * await graph.invoke({ n: 0 }, { threadId: 'long' });
 * await compactThread(graph, 'long', { keepLast: 10 }); // { snapshot: '…', rebased: 9, deleted: … }
 * ```
 */
export async function compactThread(
  compiled: CompiledGraph<never, unknown>,
  threadId: string,
  options: CompactOptions,
): Promise<CompactReport> {
  const { keepLast } = options;
  const { checkpointer, topology } = graphRuntime(compiled);
  if (checkpointer === undefined)
    throw new WeftError('INVALID_ARGUMENT', `compactThread: graph "${topology.name}" has no checkpointer`);
  const graph = { checkpointer, topology };
  if (!(Number.isInteger(keepLast) && keepLast > 0))
    throw new WeftError(
      'INVALID_ARGUMENT',
      `compact keepLast must be a positive integer, got ${String(keepLast)}`,
    );
  const store = maintainable(graph.checkpointer);
  const links = await store.listLinks(threadId, '');
  const head = links.at(-1);
  const lineage = head === undefined ? [] : lineageOf(head, links);
  const target = lineage[Math.min(keepLast, lineage.length) - 1];
  if (head === undefined || target === undefined) return { snapshot: undefined, rebased: 0, deleted: 0 };
  let snapshot: string | undefined;
  let rebased = 0;
  if (target.id !== target.baseId) {
    const loaded = await loadCheckpoint(store, graph.topology, { threadId, ns: '', id: target.id });
    // A checkpoint of an older state version is migrated when read: its snapshot waits for the next run.
    if (loaded === undefined || storedStateVersion(loaded.record) !== graph.topology.versioning.version)
      return { snapshot: undefined, rebased: 0, deleted: 0 };
    const payload = `{"v":1,"values":${serializeChannels(loaded.values)},${loaded.record.payload.slice('{"v":1,'.length)}`;
    const descendants = descendantsOf(target, links);
    const outcome = await store.rebaseCheckpoints(
      threadId,
      '',
      { id: target.id, payload, checksum: payloadChecksum(payload), descendants },
      head.id,
    );
    if (outcome.skipped !== undefined)
      return { snapshot: undefined, rebased: 0, deleted: 0, skipped: outcome.skipped };
    snapshot = target.id;
    rebased = descendants.length;
  }
  const pruned = await pruneCheckpoints(store, { policy: { keepLast }, threadIds: [threadId] });
  const skipped = pruned.skipped.find((skip) => skip.ns === '')?.reason;
  return { snapshot, rebased, deleted: pruned.deletedCheckpoints, ...(skipped ? { skipped } : {}) };
}

/** The head and its ancestors, newest first. */
function lineageOf(head: CheckpointLink, links: readonly CheckpointLink[]): CheckpointLink[] {
  const byId = new Map(links.map((link) => [link.id, link]));
  const lineage: CheckpointLink[] = [];
  const seen = new Set<string>();
  for (let link: CheckpointLink | undefined = head; link && !seen.has(link.id); ) {
    seen.add(link.id);
    lineage.push(link);
    link = link.parentId === null ? undefined : byId.get(link.parentId);
  }
  return lineage;
}

/** Checkpoints on the target's old snapshot whose parents lead through the target. */
function descendantsOf(target: CheckpointLink, links: readonly CheckpointLink[]): string[] {
  const through = new Set([target.id]);
  const found: string[] = [];
  for (const link of links) {
    if (link.seq <= target.seq || link.baseId !== target.baseId) continue;
    if (link.parentId !== null && through.has(link.parentId)) {
      through.add(link.id);
      found.push(link.id);
    }
  }
  return found;
}
