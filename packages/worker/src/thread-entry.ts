import type { RunEvent } from '@weft/compose';

/**
 * One entry of a thread's event stream: a run event, or the marker a worker writes when a run settles.
 * `id` is its position (`<stream id>/<index>` for events, which are stored in small batches); pass it
 * back as `from` to continue right after it (SSE `Last-Event-ID`).
 *
 * @example
 * ```ts
 * const client = createClient({ connection: 'redis://127.0.0.1:6379' });
 * let lastEventId = '0'; // e.g. from the SSE `Last-Event-ID` header of a reconnecting browser
 * for await (const entry of client.entries('order-17', { from: lastEventId })) {
 *   lastEventId = entry.id;
 *   if ('event' in entry) console.log(entry.event.type); // 'run-start', 'node-end', …
 *   else console.log(`run ${entry.settled.runId} ${entry.settled.status}`); // 'run 5f3… done'
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
 * const client = createClient({ connection: 'redis://127.0.0.1:6379' });
 * const stop = new AbortController();
 * setTimeout(() => stop.abort(), 30_000); // listen for half a minute
 * for await (const event of client.events('order-17', { from: '$', signal: stop.signal })) console.log(event.type);
 * ```
 */
export interface ThreadEntryOptions {
  /** Read after this entry id: `0` (default) replays the backlog, `$` only what comes next. */
  readonly from?: string;
  /** Ends the iteration. */
  readonly signal?: AbortSignal;
}
