import { createDemoApp } from '../../src/server/demo/demo-app.ts';
import { type PlaygroundServer, startServer } from '../../src/server/server.ts';
import type { RunInfo, WireEvent } from '../../src/shared/wire.ts';

/** A demo server on an ephemeral port with an in-memory database, and JSON helpers. */
export interface Harness {
  readonly server: PlaygroundServer;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field and assert on them
  request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Creates a thread of a graph and returns its id. */
  thread(graphId: string): Promise<string>;
  /** Starts a run and returns its info (asserting 202). */
  start(threadId: string, input: unknown): Promise<RunInfo>;
  /** Reads a run's SSE stream to its end. */
  events(runId: string): Promise<WireEvent[]>;
  /** Reads a run's SSE stream to its end, with how the run ended (the closing `end` message). */
  finished(runId: string): Promise<{ events: WireEvent[]; end: RunInfo }>;
  close(): Promise<void>;
}

/** Starts the demo server for one test file. */
export async function startHarness(): Promise<Harness> {
  const server = await startServer({
    app: createDemoApp({ chunkDelayMs: 2 }),
    port: 0,
    database: ':memory:',
  });
  if (server.token !== undefined) tokens.set(new URL(server.url).origin, server.token);
  const request = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      headers: { 'content-type': 'application/json', ...authorization(server) },
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  const harness: Harness = {
    server,
    request,
    thread: async (graphId) => (await request('POST', '/api/threads', { graphId })).body.id as string,
    start: async (threadId, input) => {
      const answer = await request('POST', `/api/threads/${threadId}/runs`, { input });
      if (answer.status !== 202)
        throw new Error(`start failed: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body as RunInfo;
    },
    events: (runId) => readEvents(`${server.url}/api/runs/${runId}/events`),
    finished: (runId) => readRun(`${server.url}/api/runs/${runId}/events`),
    close: () => server.close(),
  };
  return harness;
}

/** Reads a Server-Sent Events stream to its end, returning the `data` of each message event. */
export async function readEvents(url: string, onEvent?: (event: WireEvent) => void): Promise<WireEvent[]> {
  return (await readRun(url, onEvent)).events;
}

/** The access tokens of the harness servers, by origin: `readRun` presents the one of its URL. */
const tokens = new Map<string, string>();

/** Makes `readRun` present `token` to the server at `url` (a server the harness did not start). */
export function presentToken(url: string, token: string): void {
  tokens.set(new URL(url).origin, token);
}

/** The `Authorization` header carrying a server's access token (none when it has none). */
export function authorization(server: PlaygroundServer | undefined): Record<string, string> {
  return server?.token === undefined ? {} : { authorization: `Bearer ${server.token}` };
}

/** Reads a run's Server-Sent Events stream to its end: its events and the closing `end` message. */
export async function readRun(
  url: string,
  onEvent?: (event: WireEvent) => void,
): Promise<{ events: WireEvent[]; end: RunInfo }> {
  const token = tokens.get(new URL(url).origin);
  const response = await fetch(url, {
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
  if (!response.ok || !response.body) throw new Error(`SSE failed: ${response.status}`);
  const events: WireEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = block.split('\n');
      const data = lines
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      if (lines.some((line) => line === 'event: end')) return { events, end: JSON.parse(data) as RunInfo };
      if (data === '') continue;
      const event = JSON.parse(data) as WireEvent;
      events.push(event);
      onEvent?.(event);
    }
  }
  throw new Error(`the SSE stream of ${url} closed without its end message`);
}
