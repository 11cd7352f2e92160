import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordedRequest } from './openai-compatible-server.js';

/**
 * A scripted HTTP error a loopback server answers with.
 *
 * @example
 * ```ts
 * const error: LoopbackError = { status: 429, headers: { 'retry-after': '1' } };
 * ```
 */
export interface LoopbackError {
  readonly status: number;
  readonly message?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * What a route handler answers: a JSON body, an SSE stream (`events` as `[eventName, data]`, stopping
 * and holding the connection after `stallAfter` events), or an error.
 *
 * @example
 * ```ts
 * const answer: LoopbackAnswer = { sse: [['message_stop', { type: 'message_stop' }]] };
 * ```
 */
export type LoopbackAnswer =
  | { readonly json: unknown; readonly status?: number; readonly headers?: Readonly<Record<string, string>> }
  | {
      readonly sse: readonly (readonly [string | undefined, unknown])[];
      readonly stallAfter?: number;
      readonly done?: string;
    }
  | { readonly error: LoopbackError; readonly body: unknown };

/**
 * A running loopback server of one provider's wire format.
 *
 * @example
 * ```ts
 * import { AnthropicChatModel } from '@weft/adk/anthropic';
 * const server: LoopbackServer = await startAnthropicServer({ script: ['Hello from the loopback server.'] });
 * const model = new AnthropicChatModel({ baseURL: server.url, apiKey: 'k', model: 'claude-test' });
 * await model.generate([userMessage('Hi')]); // 'Hello from the loopback server.'
 * await server.close();
 * ```
 */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: readonly RecordedRequest[];
  /** How many streamed responses the client closed before they were complete. */
  readonly disconnects: number;
  close(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  const value: unknown = text.trim() === '' ? {} : JSON.parse(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function answerWith(response: ServerResponse, answer: LoopbackAnswer, onDisconnect: () => void): void {
  if ('error' in answer) {
    response.writeHead(answer.error.status, { 'content-type': 'application/json', ...answer.error.headers });
    response.end(JSON.stringify(answer.body));
    return;
  }
  if ('json' in answer) {
    response.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
    response.end(JSON.stringify(answer.json));
    return;
  }
  response.on('close', () => {
    if (!response.writableFinished) onDisconnect();
  });
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const limit = answer.stallAfter ?? Number.POSITIVE_INFINITY;
  for (const [index, [event, data]] of answer.sse.entries()) {
    if (index >= limit) return; // hold the connection open until the client goes away
    response.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`);
  }
  response.end(answer.done === undefined ? undefined : `data: ${answer.done}\n\n`);
}

/**
 * Starts an HTTP server on 127.0.0.1 (an ephemeral port) that records every request and answers from
 * `handle` (a `404` JSON error when it returns `undefined`): the base of the provider loopback servers.
 *
 * @example
 * ```ts
 * const server = await startLoopbackServer((request) => ({ json: { ok: true } }));
 * ```
 */
export async function startLoopbackServer(
  handle: (request: RecordedRequest) => LoopbackAnswer | undefined,
): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  let disconnects = 0;
  const server = createServer((incoming, response) => {
    const path = new URL(incoming.url ?? '/', 'http://127.0.0.1').pathname;
    readJson(incoming)
      .then((body) => {
        const headers = Object.fromEntries(
          Object.entries(incoming.headers).map(([name, value]) => [
            name,
            Array.isArray(value) ? value.join(', ') : (value ?? ''),
          ]),
        );
        const request: RecordedRequest = { method: incoming.method ?? 'GET', path, headers, body };
        requests.push(request);
        const answer = handle(request) ?? {
          error: { status: 404 },
          body: { error: { message: `loopback server: no route for ${request.method} ${path}` } },
        };
        answerWith(response, answer, () => disconnects++);
      })
      .catch((error: unknown) => {
        if (!response.headersSent) {
          response.writeHead(500, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: { message: `loopback server failed: ${String(error)}` } }));
        } else response.destroy();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // listen() on a TCP port always yields an AddressInfo (a string only for pipes and sockets).
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get disconnects() {
      return disconnects;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}

/**
 * A script of replies: one per request in order, or a function of the request and its index.
 *
 * @example
 * ```ts
 * const script: LoopbackScript<string> = ['first reply', 'second reply'];
 * ```
 */
export type LoopbackScript<Reply> =
  | readonly Reply[]
  | ((request: RecordedRequest, index: number) => Reply | undefined);

/**
 * Starts a loopback server answering `POST <path>` from a script, one reply per request: `answer` turns a
 * reply into the wire format, and a request past the script's end gets a `400` with `noReply(message)` as
 * its body (in the provider's error shape). The base of the provider servers.
 *
 * @example
 * ```ts
 * const server = await startScriptedEndpoint('/v1/echo', ['hi'], (message) => ({ error: { message } }),
 *   (reply) => ({ json: { text: reply } }));
 * ```
 */
export function startScriptedEndpoint<Reply>(
  path: string,
  script: LoopbackScript<Reply>,
  noReply: (message: string) => unknown,
  answer: (reply: Reply, request: RecordedRequest, index: number) => LoopbackAnswer,
): Promise<LoopbackServer> {
  let calls = 0;
  return startLoopbackServer((request) => {
    if (request.method !== 'POST' || request.path !== path) return undefined;
    const index = calls++;
    const reply = typeof script === 'function' ? script(request, index) : script[index];
    if (reply === undefined) {
      return {
        error: { status: 400 },
        body: noReply(`loopback server: no reply scripted for request #${index}`),
      };
    }
    return answer(reply, request, index);
  });
}

/**
 * Splits text into pieces of `size` characters (at least one piece, possibly empty).
 *
 * @example
 * ```ts
 * pieces('abcdef', 4); // ['abcd', 'ef']
 * ```
 */
export function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let index = 0; index < text.length; index += Math.max(1, size))
    out.push(text.slice(index, index + Math.max(1, size)));
  return out.length === 0 ? [''] : out;
}
