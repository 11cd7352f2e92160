import type { Checkpointer } from '../checkpointer.js';
import type { ThreadSummary } from './checkpoint-maintenance.js';
import { maintainable } from './prune-checkpoints.js';

/** Totals of the threads one graph wrote (by the graph their root head names). */
export interface GraphStats {
  /** The graph's name; `undefined` for threads written before checkpoints named their graph. */
  readonly graph: string | undefined;
  readonly threads: number;
  readonly checkpoints: number;
  readonly bytes: number;
}

/** What a checkpoint store holds. */
export interface CheckpointStats {
  readonly threads: number;
  readonly checkpoints: number;
  readonly bytes: number;
  /** Per graph, largest first. */
  readonly graphs: readonly GraphStats[];
  /** The largest threads (by bytes), largest first. */
  readonly largest: readonly ThreadSummary[];
}

/**
 * Counts a store's threads, checkpoints and bytes, per graph, and names its largest threads.
 *
 * @throws {WeftError} code `INVALID_ARGUMENT` when the store cannot be maintained.
 * @example
 * ```ts
 * const stats = await checkpointStats(new MemoryCheckpointer(), { top: 5 });
 * console.log(stats.threads, stats.bytes, stats.largest.map((t) => t.threadId));
 * ```
 */
export async function checkpointStats(
  checkpointer: Checkpointer,
  options: { readonly top?: number } = {},
): Promise<CheckpointStats> {
  const store = maintainable(checkpointer);
  const top = options.top ?? 10;
  const graphs = new Map<string | undefined, { threads: number; checkpoints: number; bytes: number }>();
  let largest: ThreadSummary[] = [];
  let threads = 0;
  let checkpoints = 0;
  let bytes = 0;
  let after: string | undefined;
  for (;;) {
    const page = await store.listThreads(after === undefined ? { limit: 1000 } : { after, limit: 1000 });
    for (const thread of page) {
      threads++;
      checkpoints += thread.checkpoints;
      bytes += thread.bytes;
      const graph = graphs.get(thread.graph) ?? { threads: 0, checkpoints: 0, bytes: 0 };
      graph.threads++;
      graph.checkpoints += thread.checkpoints;
      graph.bytes += thread.bytes;
      graphs.set(thread.graph, graph);
    }
    largest = [...largest, ...page].sort((a, b) => b.bytes - a.bytes).slice(0, top);
    if (page.length < 1000) break;
    after = page.at(-1)?.threadId;
  }
  return {
    threads,
    checkpoints,
    bytes,
    graphs: [...graphs].map(([graph, totals]) => ({ graph, ...totals })).sort((a, b) => b.bytes - a.bytes),
    largest,
  };
}
