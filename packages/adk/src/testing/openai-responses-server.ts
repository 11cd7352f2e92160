import { type LoopbackError, type LoopbackServer, pieces, startScriptedEndpoint } from './loopback-http.js';
import type { ServerToolCall } from './openai-compatible-replies.js';
import type { RecordedRequest } from './openai-compatible-server.js';

/**
 * A scripted answer of the Responses API loopback server: a reasoning item (summary parts, encrypted
 * content), text and function calls (in that order), token counts, or an HTTP error.
 * `stallAfterChunks` stops a stream after that many events and holds the connection.
 *
 * @example
 * ```ts
 * const reply: ResponsesServerReply = { reasoning: { summary: ['Check the units.'], encrypted: 'enc-1' }, text: '42' };
 * ```
 */
export type ResponsesServerReply =
  | string
  | {
      readonly reasoning?: { readonly summary: readonly string[]; readonly encrypted?: string };
      readonly text?: string;
      readonly toolCalls?: readonly ServerToolCall[];
      readonly usage?: {
        readonly input?: number;
        readonly output?: number;
        readonly cached?: number;
        readonly reasoning?: number;
      };
      /** Ends the response as `incomplete` with this reason (e.g. `max_output_tokens`). */
      readonly incomplete?: 'max_output_tokens' | 'content_filter';
      readonly stallAfterChunks?: number;
    }
  | { readonly error: LoopbackError };

/**
 * Options of {@link startOpenAIResponsesServer}.
 *
 * @example
 * ```ts
 * const options: ResponsesServerOptions = { script: ['Hello!'], chunkSize: 2 };
 * ```
 */
export interface ResponsesServerOptions {
  readonly script:
    | readonly ResponsesServerReply[]
    | ((request: RecordedRequest, index: number) => ResponsesServerReply);
  /** Characters per streamed text or summary delta (default 4). */
  readonly chunkSize?: number;
  /** Fragments each function call's arguments are streamed in (default 3). */
  readonly argumentPieces?: number;
}

type Reply = Exclude<ResponsesServerReply, string | { error: unknown }>;
type Item = Record<string, unknown> & { type: string; id: string };

function itemsOf(reply: Reply, index: number): Item[] {
  const items: Item[] = [];
  if (reply.reasoning !== undefined) {
    items.push({
      type: 'reasoning',
      id: `rs_${index}`,
      summary: reply.reasoning.summary.map((text) => ({ type: 'summary_text', text })),
      ...(reply.reasoning.encrypted === undefined ? {} : { encrypted_content: reply.reasoning.encrypted }),
    });
  }
  if (reply.text !== undefined && reply.text !== '') {
    items.push({
      type: 'message',
      id: `msg_${index}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: reply.text, annotations: [] }],
    });
  }
  for (const [position, call] of (reply.toolCalls ?? []).entries()) {
    items.push({
      type: 'function_call',
      id: `fc_${index}_${position}`,
      call_id: call.id ?? `call_${index}_${position}`,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
      status: 'completed',
    });
  }
  return items;
}

function responseOf(reply: Reply, request: RecordedRequest, index: number, output: Item[]) {
  const usage = reply.usage ?? {};
  const input = usage.input ?? Math.ceil(JSON.stringify(request.body.input ?? []).length / 4);
  const produced = usage.output ?? 5;
  return {
    id: `resp_${index}`,
    object: 'response',
    created_at: 0,
    model: String(request.body.model ?? 'loopback'),
    status: reply.incomplete === undefined ? 'completed' : 'incomplete',
    incomplete_details: reply.incomplete === undefined ? null : { reason: reply.incomplete },
    error: null,
    output,
    usage: {
      input_tokens: input,
      input_tokens_details: { cached_tokens: usage.cached ?? 0 },
      output_tokens: produced,
      output_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
      total_tokens: input + produced,
    },
  };
}

function itemEvents(
  item: Item,
  outputIndex: number,
  options: ResponsesServerOptions,
): [string, Record<string, unknown>][] {
  const size = options.chunkSize ?? 4;
  const base = { output_index: outputIndex, item_id: item.id };
  const events: [string, Record<string, unknown>][] = [];
  if (item.type === 'reasoning') {
    events.push([
      'response.output_item.added',
      { output_index: outputIndex, item: { type: 'reasoning', id: item.id, summary: [] } },
    ]);
    for (const [summaryIndex, part] of (item.summary as { text: string }[]).entries()) {
      events.push([
        'response.reasoning_summary_part.added',
        { ...base, summary_index: summaryIndex, part: { type: 'summary_text', text: '' } },
      ]);
      for (const piece of pieces(part.text, size)) {
        events.push([
          'response.reasoning_summary_text.delta',
          { ...base, summary_index: summaryIndex, delta: piece },
        ]);
      }
    }
  } else if (item.type === 'message') {
    events.push([
      'response.output_item.added',
      { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } },
    ]);
    const text = (item.content as { text: string }[])[0]?.text ?? '';
    for (const piece of pieces(text, size)) {
      events.push(['response.output_text.delta', { ...base, content_index: 0, delta: piece, logprobs: [] }]);
    }
  } else {
    events.push([
      'response.output_item.added',
      { output_index: outputIndex, item: { ...item, arguments: '', status: 'in_progress' } },
    ]);
    const json = String(item.arguments);
    const size = Math.ceil(json.length / Math.max(1, options.argumentPieces ?? 3));
    for (const piece of pieces(json, size))
      events.push(['response.function_call_arguments.delta', { ...base, delta: piece }]);
  }
  events.push(['response.output_item.done', { output_index: outputIndex, item }]);
  return events;
}

function answer(
  reply: ResponsesServerReply,
  request: RecordedRequest,
  index: number,
  options: ResponsesServerOptions,
) {
  if (typeof reply !== 'string' && 'error' in reply) {
    const { status, message, headers } = reply.error;
    const type =
      status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
    return {
      error: { status, ...(headers === undefined ? {} : { headers }) },
      body: { error: { message: message ?? `scripted error ${status}`, type, param: null, code: null } },
    };
  }
  const scripted: Reply = typeof reply === 'string' ? { text: reply } : reply;
  const output = itemsOf(scripted, index);
  const response = responseOf(scripted, request, index, output);
  if (request.body.stream !== true) return { json: response };
  const events: [string, Record<string, unknown>][] = [
    ['response.created', { response: { ...response, status: 'in_progress', output: [], usage: null } }],
    ...output.flatMap((item, outputIndex) => itemEvents(item, outputIndex, options)),
    [scripted.incomplete === undefined ? 'response.completed' : 'response.incomplete', { response }],
  ];
  const sse = events.map(
    ([type, data], sequence) => [type, { type, sequence_number: sequence, ...data }] as const,
  );
  return {
    sse,
    ...(scripted.stallAfterChunks === undefined ? {} : { stallAfter: scripted.stallAfterChunks }),
  };
}

/**
 * Starts a loopback server that speaks OpenAI's Responses API (`POST /v1/responses`): a response object
 * as JSON, or the SSE events of a streamed response (`response.created`, `output_item.added`/`.done`,
 * reasoning summary, text and function-call argument deltas, `response.completed`); scripted errors.
 * Point an `OpenAIChatModel` with `api: 'responses'` at its `url` + `/v1`.
 *
 * @example
 * ```ts
 * const server = await startOpenAIResponsesServer({ script: [{ toolCalls: [{ name: 'f' }] }, 'done'] });
 * const model = new OpenAIChatModel({ baseURL: `${server.url}/v1`, apiKey: 'k', model: 'gpt-test', api: 'responses' });
 * ```
 */
export async function startOpenAIResponsesServer(options: ResponsesServerOptions): Promise<LoopbackServer> {
  return startScriptedEndpoint(
    '/v1/responses',
    options.script,
    (message) => ({ error: { message, type: 'invalid_request_error' } }),
    (reply, request, index) => answer(reply, request, index, options),
  );
}
