import { type LoopbackError, type LoopbackServer, pieces, startScriptedEndpoint } from './loopback-http.js';
import type { ServerToolCall } from './openai-compatible-replies.js';
import type { RecordedRequest } from './openai-compatible-server.js';

/**
 * A scripted answer of the Anthropic loopback server: thinking blocks, text and tool calls (in that
 * order), token counts in Anthropic's terms, a stop reason, or an HTTP error (`type` is Anthropic's
 * error type). `stallAfterChunks` stops a stream after that many events and holds the connection.
 *
 * @example
 * ```ts
 * const reply: AnthropicServerReply = { thinking: [{ text: 'Hmm.', signature: 'sig' }], text: 'Hi' };
 * ```
 */
export type AnthropicServerReply =
  | string
  | {
      readonly thinking?: readonly { readonly text: string; readonly signature: string }[];
      readonly redactedThinking?: string;
      readonly text?: string;
      readonly toolCalls?: readonly ServerToolCall[];
      readonly usage?: {
        readonly input?: number;
        readonly output?: number;
        readonly cacheRead?: number;
        readonly cacheWrite?: number;
        readonly thinking?: number;
      };
      readonly stopReason?: string;
      readonly stallAfterChunks?: number;
    }
  | { readonly error: LoopbackError & { readonly type?: string } };

/**
 * Options of {@link startAnthropicServer}.
 *
 * @example
 * ```ts
 * const options: AnthropicServerOptions = { script: ['Hello!'], chunkSize: 3 };
 * ```
 */
export interface AnthropicServerOptions {
  readonly script:
    | readonly AnthropicServerReply[]
    | ((request: RecordedRequest, index: number) => AnthropicServerReply);
  /** Characters per streamed text or thinking delta (default 4). */
  readonly chunkSize?: number;
  /** Fragments each tool call's `input_json` is streamed in (default 3). */
  readonly argumentPieces?: number;
}

type Block = Record<string, unknown> & { type: string };
type Reply = Exclude<AnthropicServerReply, string | { error: unknown }>;

function blocksOf(reply: Reply, index: number): Block[] {
  const blocks: Block[] = (reply.thinking ?? []).map((t) => ({
    type: 'thinking',
    thinking: t.text,
    signature: t.signature,
  }));
  if (reply.redactedThinking !== undefined)
    blocks.push({ type: 'redacted_thinking', data: reply.redactedThinking });
  if (reply.text !== undefined && reply.text !== '') blocks.push({ type: 'text', text: reply.text });
  for (const [position, call] of (reply.toolCalls ?? []).entries()) {
    const input = typeof call.arguments === 'string' ? JSON.parse(call.arguments) : (call.arguments ?? {});
    blocks.push({ type: 'tool_use', id: call.id ?? `toolu_${index}_${position}`, name: call.name, input });
  }
  return blocks;
}

function usageOf(reply: Reply, promptLength: number) {
  const usage = reply.usage ?? {};
  return {
    input_tokens: usage.input ?? Math.ceil(promptLength / 4),
    output_tokens: usage.output ?? 5,
    cache_read_input_tokens: usage.cacheRead ?? 0,
    cache_creation_input_tokens: usage.cacheWrite ?? 0,
    ...(usage.thinking === undefined ? {} : { output_tokens_details: { thinking_tokens: usage.thinking } }),
  };
}

function blockEvents(block: Block, index: number, options: AnthropicServerOptions): [string, unknown][] {
  const size = options.chunkSize ?? 4;
  const delta = (value: Record<string, unknown>): [string, unknown] => [
    'content_block_delta',
    { type: 'content_block_delta', index, delta: value },
  ];
  const start = (content_block: Block): [string, unknown] => [
    'content_block_start',
    { type: 'content_block_start', index, content_block },
  ];
  const events: [string, unknown][] = [];
  if (block.type === 'thinking') {
    events.push(start({ type: 'thinking', thinking: '', signature: '' }));
    for (const piece of pieces(String(block.thinking), size))
      events.push(delta({ type: 'thinking_delta', thinking: piece }));
    events.push(delta({ type: 'signature_delta', signature: block.signature }));
  } else if (block.type === 'text') {
    events.push(start({ type: 'text', text: '' }));
    for (const piece of pieces(String(block.text), size))
      events.push(delta({ type: 'text_delta', text: piece }));
  } else if (block.type === 'tool_use') {
    events.push(start({ type: 'tool_use', id: block.id, name: block.name, input: {} }));
    const json = JSON.stringify(block.input);
    const count = Math.max(1, options.argumentPieces ?? 3);
    const size = Math.ceil(json.length / count);
    for (const piece of json === '{}' ? [''] : pieces(json, size))
      events.push(delta({ type: 'input_json_delta', partial_json: piece }));
  } else events.push(start(block));
  events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  return events;
}

function answer(
  reply: AnthropicServerReply,
  request: RecordedRequest,
  index: number,
  options: AnthropicServerOptions,
) {
  if (typeof reply !== 'string' && 'error' in reply) {
    const { status, message, headers, type } = reply.error;
    const errorType =
      type ?? (status === 429 ? 'rate_limit_error' : status >= 500 ? 'api_error' : 'invalid_request_error');
    return {
      error: { status, ...(headers === undefined ? {} : { headers }) },
      body: { type: 'error', error: { type: errorType, message: message ?? `scripted error ${status}` } },
    };
  }
  const scripted: Reply = typeof reply === 'string' ? { text: reply } : reply;
  const blocks = blocksOf(scripted, index);
  const usage = usageOf(scripted, JSON.stringify(request.body.messages ?? []).length);
  const stopReason =
    scripted.stopReason ?? (blocks.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn');
  const message = {
    id: `msg_${index}`,
    type: 'message',
    role: 'assistant',
    model: String(request.body.model ?? 'claude-loopback'),
  };
  if (request.body.stream !== true) {
    return { json: { ...message, content: blocks, stop_reason: stopReason, stop_sequence: null, usage } };
  }
  const events: [string, unknown][] = [
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          ...message,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage, output_tokens: 1 },
        },
      },
    ],
    ...blocks.flatMap((block, position) => blockEvents(block, position, options)),
    [
      'message_delta',
      {
        type: 'message_delta',
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: {
          output_tokens: usage.output_tokens,
          ...('output_tokens_details' in usage ? { output_tokens_details: usage.output_tokens_details } : {}),
        },
      },
    ],
    ['message_stop', { type: 'message_stop' }],
  ];
  return {
    sse: events,
    ...(scripted.stallAfterChunks === undefined ? {} : { stallAfter: scripted.stallAfterChunks }),
  };
}

/**
 * Starts a loopback server that speaks Anthropic's Messages API (`POST /v1/messages`): JSON, or SSE
 * events (`message_start`, `content_block_start`/`_delta`/`_stop` with thinking, signature, text and
 * `input_json` deltas, `message_delta`, `message_stop`) for `stream: true`; scripted errors in
 * Anthropic's error shape. Point `AnthropicChatModel`'s `baseURL` at its `url`.
 *
 * @example
 * ```ts
 * const server = await startAnthropicServer({ script: [{ error: { status: 529, type: 'overloaded_error' } }, 'Hi!'] });
 * const model = withRetry(new AnthropicChatModel({ baseURL: server.url, apiKey: 'k', model: 'claude-test' }));
 * ```
 */
export async function startAnthropicServer(options: AnthropicServerOptions): Promise<LoopbackServer> {
  return startScriptedEndpoint(
    '/v1/messages',
    options.script,
    (message) => ({ type: 'error', error: { type: 'invalid_request_error', message } }),
    (reply, request, index) => answer(reply, request, index, options),
  );
}
