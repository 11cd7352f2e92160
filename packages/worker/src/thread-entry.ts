import type { RunEvent } from '@weft/compose';

/**
 * One entry of a thread's event stream: a run event, or the marker a worker writes when a run settles.
 * `id` is its position (`<stream id>/<index>` for events, which are stored in small batches); pass it
 * back as `from` to continue right after it (SSE `Last-Event-ID`).
 *
 * @example
 * ```ts
 * for await (const entry of client.entries(threadId, { from: lastEventId })) {
 *   if ('event' in entry) send(entry.id, entry.event);
 *   else console.log(`run ${entry.settled.runId} ${entry.settled.status}`);
 * }
 * ```
 */
export type ThreadEntry =
  | { readonly id: string; readonly event: RunEvent }
  | { readonly id: string; readonly settled: { readonly runId: string; readonly status: string } };

/**
 * Options of `client.events` and `client.entries`.
 *
 * @example
 * ```ts
 * for await (const event of client.events(threadId, { from: '$', signal })) console.log(event.type);
 * ```
 */
export interface ThreadEntryOptions {
  /** Read after this entry id: `0` (default) replays the backlog, `$` only what comes next. */
  readonly from?: string;
  /** Ends the iteration. */
  readonly signal?: AbortSignal;
}
