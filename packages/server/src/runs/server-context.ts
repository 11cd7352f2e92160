// What every part of the server shares: its graphs, stores, records, event log and limits.
import type { Checkpointer, CompiledGraph, Store } from '@weft/compose';
import { WeftServerError } from '../errors/server-error.js';
import type { RunRecord } from '../records/record-types.js';
import type { Records } from '../records/records.js';
import type { EventLog } from './event-log.js';

/**
 * A compiled graph the server serves, whatever its input, output and node types.
 *
 * @example
 * ```ts
 * const graphs: Record<string, ServedGraph> = { agent: new StateGraph(z.object({ n: z.number() })).addNode('a', () => ({})).addEdge(START, 'a').addEdge('a', END).compile() };
 * ```
 */
// biome-ignore lint/suspicious/noExplicitAny: graphs of every input, output and node type are served alike (as @weft/a2a's AnyCompiledGraph)
export type ServedGraph = CompiledGraph<any, any, string, any>;

/** Where a server's runs are written, how it logs, and what it allows. */
export interface ServerContext {
  readonly graphs: ReadonlyMap<string, ServedGraph>;
  readonly checkpointer: Checkpointer;
  /** The long-term store: graphs' `ctx.store`, the Store API's items, and the server's records. */
  readonly store: Store;
  readonly records: Records;
  readonly events: EventLog;
  readonly limits: {
    /** Runs a user may have pending or running at once. */
    readonly concurrentRunsPerUser: number;
    /** How often a reader of a run executed elsewhere looks for new events. */
    readonly pollMs: number;
  };
  readonly log: (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;
  /** Called once a run ended (webhooks), with its final record and error. */
  onRunEnd?: (run: RunRecord, error: string | null) => void;
}

/** The graph served under `graphId`, bound to the server's checkpointer and store. */
export function graphOf(context: ServerContext, graphId: string): ServedGraph {
  const graph = context.graphs.get(graphId);
  if (!graph)
    throw new WeftServerError(
      'NOT_FOUND',
      `graph "${graphId}" is not served (served: ${[...context.graphs.keys()].join(', ') || 'none'})`,
    );
  return graph.withOptions({ checkpointer: context.checkpointer, store: context.store });
}

/** Now, as the ISO strings records hold. */
export const nowIso = (): string => new Date().toISOString();
