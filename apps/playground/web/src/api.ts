import type { PriceTable } from '@weft/adk/prices';
import { Observable } from 'rxjs';
import type {
  ApiError,
  Breakpoints,
  GraphInfo,
  RunInfo,
  SnapshotInfo,
  ThreadInfo,
  WireEvent,
} from '../../src/shared/wire.ts';

/** An API answer that was not 2xx, with the fields the server named. */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly issues: NonNullable<ApiError['error']['issues']>;

  constructor(status: number, body: ApiError | undefined) {
    super(body?.error.message ?? `request failed (${status})`);
    this.status = status;
    this.issues = body?.error.issues ?? [];
  }
}

/** One JSON API request; a non-2xx answer throws an {@link ApiRequestError}. */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  // The server takes every write as JSON only (a cross-site form cannot send that), body or not.
  const write = method !== 'GET';
  const response = await fetch(path, {
    method,
    headers: write ? { 'content-type': 'application/json' } : {},
    ...(write ? { body: JSON.stringify(body ?? {}) } : {}),
  });
  const text = await response.text();
  const parsed = text === '' ? undefined : (JSON.parse(text) as unknown);
  if (!response.ok) throw new ApiRequestError(response.status, parsed as ApiError | undefined);
  return parsed as T;
}

/** The playground's JSON API. */
export const api = {
  graphs: () => call<{ graphs: GraphInfo[]; problems: string[]; prices: PriceTable }>('GET', '/api/graphs'),
  threads: (graphId: string) =>
    call<ThreadInfo[]>('GET', `/api/threads?graphId=${encodeURIComponent(graphId)}`),
  createThread: (graphId: string) => call<ThreadInfo>('POST', '/api/threads', { graphId }),
  thread: (id: string) => call<{ thread: ThreadInfo; runs: RunInfo[] }>('GET', `/api/threads/${id}`),
  deleteThread: (id: string) => call<{ deleted: string }>('DELETE', `/api/threads/${id}`),
  setBreakpoints: (id: string, breakpoints: Breakpoints) =>
    call<ThreadInfo>('PUT', `/api/threads/${id}/breakpoints`, breakpoints),
  history: (id: string) => call<SnapshotInfo[]>('GET', `/api/threads/${id}/history`),
  start: (id: string, input: unknown) => call<RunInfo>('POST', `/api/threads/${id}/runs`, { input }),
  resume: (id: string, value: unknown, interruptId?: string) =>
    call<RunInfo>('POST', `/api/threads/${id}/resume`, { value, ...(interruptId ? { interruptId } : {}) }),
  continue: (id: string) => call<RunInfo>('POST', `/api/threads/${id}/continue`, {}),
  fork: (id: string, checkpointId: string, values?: Record<string, unknown>) =>
    call<RunInfo>('POST', `/api/threads/${id}/fork`, { checkpointId, ...(values ? { values } : {}) }),
  stop: (runId: string) => call<RunInfo>('POST', `/api/runs/${runId}/stop`),
};

/** One message of a run's event stream: an event, or how the run ended (undefined: the stream broke off). */
export type RunMessage = { readonly event: WireEvent } | { readonly end: RunInfo | undefined };

/**
 * A run's event stream over Server-Sent Events as an Observable: the backlog, then live events, then
 * the end (with the run's final info), after which it completes. Unsubscribing closes the connection.
 *
 * @example
 * ```ts
 * const subscription = runMessages(runId).subscribe((m) => ('event' in m ? show(m.event) : done(m.end)));
 * ```
 */
export function runMessages(runId: string): Observable<RunMessage> {
  return new Observable<RunMessage>((subscriber) => {
    const source = new EventSource(`/api/runs/${runId}/events`);
    const end = (info: RunInfo | undefined) => {
      source.close();
      subscriber.next({ end: info });
      subscriber.complete();
    };
    source.onmessage = (message) =>
      subscriber.next({ event: JSON.parse(message.data as string) as WireEvent });
    source.addEventListener('end', (message) =>
      end(JSON.parse((message as MessageEvent<string>).data) as RunInfo),
    );
    source.onerror = () => {
      // The server went away (e.g. a restart) or the run is unknown: stop instead of retrying forever.
      if (source.readyState === EventSource.CLOSED) end(undefined);
    };
    return () => source.close();
  });
}
