import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HashingEmbeddings } from '@weft/compose';
import {
  completionBody,
  type ResolvedAnswer,
  resolveAnswer,
  type ServerReply,
  streamBodies,
} from './openai-compatible-replies.js';

/**
 * A request the loopback server received.
 *
 * @example
 * ```ts
 * import { expect } from 'vitest';
 * import { OpenAIChatModel } from '@weft/adk/openai';
 * const server = await startOpenAICompatibleServer({ script: ['Hello!'], model: 'test-model' });
 * const model = new OpenAIChatModel({ baseURL: server.baseURL, apiKey: 'test', model: 'test-model' });
 * for await (const chunk of model.stream([userMessage('Hi')])) process.stdout.write(chunk.text ?? '');
 * const first: RecordedRequest | undefined = server.requests[0];
 * expect(first?.body).toMatchObject({ model: 'test-model', stream: true });
 * await server.close();
 * ```
 */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body (`{}` when there was none). */
  readonly body: Readonly<Record<string, unknown>>;
}

/**
 * The script of the loopback server: one reply per chat-completions request, in order (a string is
 * a text reply), or a function of the request.
 *
 * @example
 * ```ts
 * const script: ServerScript = (request, index) => (index === 0 ? { error: { status: 500 } } : 'ok');
 * ```
 */
export type ServerScript =
  | readonly (ServerReply | string)[]
  | ((request: RecordedRequest, index: number) => ServerReply | string);

/**
 * Options of {@link startOpenAICompatibleServer}.
 *
 * @example
 * ```ts
 * const options: OpenAICompatibleServerOptions = { script: ['Hello!'], chunkSize: 2 };
 * ```
 */
export interface OpenAICompatibleServerOptions {
  readonly script: ServerScript;
  /** The model name put in responses (default: the requested model). */
  readonly model?: string;
  /** Characters per streamed text chunk (default 4). */
  readonly chunkSize?: number;
  /** Fragments each tool call's arguments are streamed in (default 3). */
  readonly argumentPieces?: number;
}

/**
 * A running loopback OpenAI-compatible server.
 *
 * @example
 * ```ts
 * import { OpenAIChatModel } from '@weft/adk/openai';
 * const server = await startOpenAICompatibleServer({ script: ['Hello!'], model: 'test-model' });
 * const model = new OpenAIChatModel({ baseURL: server.baseURL, apiKey: 'test', model: 'test-model' });
 * await model.generate([userMessage('Hi')]); // 'Hello!'
 * await server.close();
 * ```
 */
export interface OpenAICompatibleServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** `http://127.0.0.1:<port>/v1`, for the `baseURL` option of clients. */
  readonly baseURL: string;
  /** Every request received, in order. */
  readonly requests: readonly RecordedRequest[];
  /** How many streamed responses the client closed before they were complete. */
  readonly disconnects: number;
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  if (text.trim() === '') return {};
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

function sendError(
  response: ServerResponse,
  status: number,
  message: string,
  headers?: Readonly<Record<string, string>>,
) {
  const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  sendJson(response, status, { error: { message, type, param: null, code: null } }, headers);
}

interface StreamPlan {
  readonly answer: ResolvedAnswer;
  readonly includeUsage: boolean;
  readonly stallAfterChunks: number | undefined;
}

/** Answers requests from the script and keeps the record. */
class ScriptedEndpoint {
  readonly requests: RecordedRequest[] = [];
  disconnects = 0;
  #completions = 0;
  readonly #options: OpenAICompatibleServerOptions;

  constructor(options: OpenAICompatibleServerOptions) {
    this.#options = options;
  }

  async handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(incoming.url ?? '/', 'http://127.0.0.1').pathname;
    let body: Record<string, unknown>;
    try {
      body = await readBody(incoming);
    } catch {
      sendError(response, 400, 'loopback server: the request body is not JSON');
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(incoming.headers).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.join(', ') : (value ?? ''),
      ]),
    );
    const request: RecordedRequest = { method: incoming.method ?? 'GET', path, headers, body };
    this.requests.push(request);
    if (request.method === 'POST' && path === '/v1/chat/completions') this.#complete(request, response);
    else if (request.method === 'POST' && path === '/v1/embeddings') await this.#embed(request, response);
    else if (request.method === 'GET' && path === '/v1/models') {
      sendJson(response, 200, {
        object: 'list',
        data: [{ id: this.#options.model ?? 'loopback', object: 'model' }],
      });
    } else sendError(response, 404, `loopback server: no route for ${request.method} ${path}`);
  }

  /** Answers `/v1/embeddings` with `HashingEmbeddings` vectors (deterministic), float or base64. */
  async #embed(request: RecordedRequest, response: ServerResponse): Promise<void> {
    const { input, dimensions, encoding_format: format } = request.body;
    const texts = typeof input === 'string' ? [input] : input;
    if (!Array.isArray(texts) || !texts.every((text) => typeof text === 'string')) {
      sendError(response, 400, 'loopback server: embeddings input must be a string or an array of strings');
      return;
    }
    const embeddings = new HashingEmbeddings({
      dimensions: typeof dimensions === 'number' ? dimensions : 32,
    });
    const vectors = await embeddings.embed(texts);
    const model =
      this.#options.model ?? (typeof request.body.model === 'string' ? request.body.model : 'loopback');
    const tokens = texts.reduce((sum, text) => sum + text.split(/\s+/).filter(Boolean).length, 0);
    sendJson(response, 200, {
      object: 'list',
      model,
      data: vectors.map((vector, index) => ({
        object: 'embedding',
        index,
        embedding:
          format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector,
      })),
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  #complete(request: RecordedRequest, response: ServerResponse): void {
    const index = this.#completions++;
    const script = this.#options.script;
    const reply = typeof script === 'function' ? script(request, index) : script[index];
    if (reply === undefined) {
      sendError(
        response,
        400,
        `loopback server: no reply scripted for chat-completions request #${index} (from 0)`,
      );
      return;
    }
    const scripted = typeof reply === 'string' ? { text: reply } : reply;
    if ('error' in scripted) {
      const { status, message, headers } = scripted.error;
      sendError(response, status, message ?? `scripted error ${status}`, headers);
      return;
    }
    const model =
      this.#options.model ?? (typeof request.body.model === 'string' ? request.body.model : 'loopback');
    const promptText = JSON.stringify(request.body.messages ?? []);
    const answer = resolveAnswer(scripted, { index, model, promptText });
    if (request.body.stream !== true) {
      sendJson(response, 200, completionBody(answer));
      return;
    }
    const streamOptions = request.body.stream_options as { include_usage?: unknown } | undefined;
    this.#stream(response, {
      answer,
      includeUsage: streamOptions?.include_usage === true,
      stallAfterChunks: scripted.stallAfterChunks,
    });
  }

  #stream(response: ServerResponse, plan: StreamPlan): void {
    const bodies = streamBodies(plan.answer, {
      chunkSize: this.#options.chunkSize ?? 4,
      argumentPieces: this.#options.argumentPieces ?? 3,
      includeUsage: plan.includeUsage,
    });
    response.on('close', () => {
      if (!response.writableFinished) this.disconnects++;
    });
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const limit = plan.stallAfterChunks ?? Number.POSITIVE_INFINITY;
    for (const [index, body] of bodies.entries()) {
      if (index >= limit) return; // hold the connection open until the client goes away
      response.write(`data: ${JSON.stringify(body)}\n\n`);
    }
    response.end('data: [DONE]\n\n');
  }
}

/**
 * Starts an OpenAI-compatible chat-completions server on 127.0.0.1 (an ephemeral port) that answers
 * from a script: JSON for plain requests, SSE for `stream: true` (text in several chunks, tool-call
 * arguments split across chunks, a usage chunk when asked, `[DONE]`), and scripted HTTP errors. It
 * records every request. When the script runs out it answers 400 naming the request number.
 * `POST /v1/embeddings` answers with deterministic `HashingEmbeddings` vectors (`dimensions` from the
 * request, default 32; float or base64), so embedding clients can be tested without a model.
 *
 * @example
 * ```ts
 * const server = await startOpenAICompatibleServer({ script: [{ error: { status: 429 } }, 'Hi!'] });
 * const model = withRetry(new OpenAIChatModel({ baseURL: server.baseURL, apiKey: 'k', model: 'm' }));
 * await model.generate([userMessage('Hello')]);
 * await server.close();
 * ```
 */
export async function startOpenAICompatibleServer(
  options: OpenAICompatibleServerOptions,
): Promise<OpenAICompatibleServer> {
  const endpoint = new ScriptedEndpoint(options);
  const server = createServer((incoming, response) => {
    endpoint.handle(incoming, response).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, 500, `loopback server failed: ${String(error)}`);
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // listen() on a TCP port always yields an AddressInfo (a string only for pipes and sockets).
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseURL: `${url}/v1`,
    requests: endpoint.requests,
    get disconnects() {
      return endpoint.disconnects;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
