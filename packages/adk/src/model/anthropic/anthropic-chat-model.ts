import { Anthropic } from '@anthropic-ai/sdk';
import { registerSecret } from '@weft/compose';
import { AdkError } from '../../errors/adk-error.js';
import { throwIfAborted } from '../../internal/abort.js';
import type { AssistantMessage, Message } from '../../message/message.js';
import type { MessageChunk } from '../../message/message-chunk.js';
import type { ChatModel, ChatModelCallOptions } from '../chat-model.js';
import type { AnthropicStreamEvent } from './anthropic-types.js';
import { type AnthropicRequestSettings, toAnthropicRequest } from './convert-anthropic-request.js';
import { fromAnthropicEvent, fromAnthropicResponse } from './convert-anthropic-response.js';
import { toAnthropicError } from './to-anthropic-error.js';

/**
 * Options of {@link AnthropicChatModel}.
 *
 * @example
 * ```ts
 * const options: AnthropicChatModelOptions = { model: 'claude-sonnet-4-5', thinking: { budgetTokens: 2048 } };
 * ```
 */
export interface AnthropicChatModelOptions {
  /** The model id (default: `ANTHROPIC_MODEL`). */
  readonly model?: string;
  /** The API key (default: `ANTHROPIC_API_KEY`). */
  readonly apiKey?: string;
  /** The endpoint (default: `ANTHROPIC_BASE_URL`, else Anthropic's). */
  readonly baseURL?: string;
  /** The model's name in logs and events (default `anthropic:<model>`). */
  readonly name?: string;
  /** `max_tokens` of calls that do not set `maxTokens` (default 4096; Anthropic requires a limit). */
  readonly maxTokens?: number;
  /** Cache the instruction and the tools across calls (default true). */
  readonly promptCaching?: boolean;
  /** Extended thinking: the thinking blocks are kept in the message (with signatures) and sent back. */
  readonly thinking?: { readonly budgetTokens: number };
  /** Retries of the client itself (default 0: wrap the model in `withRetry` instead). */
  readonly maxRetries?: number;
  /** Timeout of one request in milliseconds. */
  readonly timeoutMs?: number;
  /** Headers sent with every request (e.g. `anthropic-beta`). */
  readonly defaultHeaders?: Readonly<Record<string, string>>;
  /** A client to use instead of creating one; then `apiKey`, `baseURL`, … are ignored. */
  readonly client?: Anthropic;
  /** Where the defaults are read from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

function createClient(
  options: AnthropicChatModelOptions,
  env: Readonly<Record<string, string | undefined>>,
): Anthropic {
  const baseURL = options.baseURL ?? env.ANTHROPIC_BASE_URL;
  const apiKey = options.apiKey ?? env.ANTHROPIC_API_KEY;
  if (apiKey === undefined) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      'AnthropicChatModel has no API key: pass { apiKey } or set ANTHROPIC_API_KEY',
    );
  }
  // The key never shows in an error message, span or stored error (a 401 body may echo it).
  registerSecret(apiKey);
  return new Anthropic({
    apiKey,
    baseURL: baseURL ?? null,
    maxRetries: options.maxRetries ?? 0,
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    ...(options.defaultHeaders === undefined ? {} : { defaultHeaders: { ...options.defaultHeaders } }),
  });
}

/** Adds `{}` as the arguments of tool calls whose input streamed no JSON (a tool without parameters). */
function* withEmptyInputs(event: AnthropicStreamEvent, open: Map<number, boolean>): Generator<MessageChunk> {
  if (event.type === 'content_block_start' && event.content_block.type === 'tool_use')
    open.set(event.index, false);
  if (
    event.type === 'content_block_delta' &&
    event.delta.type === 'input_json_delta' &&
    event.delta.partial_json !== ''
  ) {
    open.set(event.index, true);
  }
  const chunk = fromAnthropicEvent(event);
  if (chunk !== undefined) yield chunk;
  if (event.type === 'content_block_stop' && open.get(event.index) === false) {
    yield { toolCallDeltas: [{ index: event.index, arguments: '{}' }] };
  }
}

/**
 * A {@link ChatModel} for Anthropic's Messages API through the official `@anthropic-ai/sdk` client:
 * tools and tool choice, streamed `input_json` deltas merged into tool calls, extended thinking kept
 * as reasoning parts with their signatures and sent back, prompt caching of the instruction and the
 * tools, images and PDFs, structured output, usage with cache and thinking tokens, stop reasons, and
 * abort. Failures are {@link ModelError}s (status, retryable, `retry-after`). Import it from
 * `@weft/adk/anthropic`; `@anthropic-ai/sdk` is an optional peer dependency.
 *
 * @throws {AdkError} `INVALID_ARGUMENT` from the constructor when no model or no API key is configured.
 * @example
 * ```ts
 * const model = withRetry(new AnthropicChatModel({ model: 'claude-sonnet-4-5', thinking: { budgetTokens: 2048 } }));
 * const reply = await model.generate([userMessage('Why is the sky blue?')]);
 * ```
 */
export class AnthropicChatModel implements ChatModel {
  readonly name: string;
  /** The model id sent with each request. */
  readonly model: string;
  /** `anthropic` (`gen_ai.provider.name` in traces). */
  readonly provider = 'anthropic';
  /** The model id sent with each request (the same as `model`). */
  readonly modelId: string;
  readonly #client: Anthropic;
  readonly #settings: AnthropicRequestSettings;

  constructor(options: AnthropicChatModelOptions = {}) {
    const env = options.env ?? process.env;
    const model = options.model ?? env.ANTHROPIC_MODEL;
    if (model === undefined || model === '') {
      throw new AdkError(
        'INVALID_ARGUMENT',
        'AnthropicChatModel has no model: pass { model } or set ANTHROPIC_MODEL',
      );
    }
    this.model = model;
    this.modelId = model;
    this.name = options.name ?? `anthropic:${model}`;
    this.#client = options.client ?? createClient(options, env);
    this.#settings = {
      model,
      name: this.name,
      maxTokens: options.maxTokens ?? 4096,
      promptCaching: options.promptCaching ?? true,
      ...(options.thinking === undefined ? {} : { thinkingBudget: options.thinking.budgetTokens }),
    };
  }

  async generate(
    messages: readonly Message[],
    options: ChatModelCallOptions = {},
  ): Promise<AssistantMessage> {
    try {
      const body = toAnthropicRequest(messages, options, this.#settings);
      const response = await this.#client.messages.create(
        body,
        options.signal === undefined ? {} : { signal: options.signal },
      );
      return fromAnthropicResponse(response);
    } catch (error) {
      throw toAnthropicError(error, this.name, options.signal);
    }
  }

  async *stream(
    messages: readonly Message[],
    options: ChatModelCallOptions = {},
  ): AsyncIterable<MessageChunk> {
    try {
      const body = { ...toAnthropicRequest(messages, options, this.#settings), stream: true as const };
      const stream = await this.#client.messages.create(
        body,
        options.signal === undefined ? {} : { signal: options.signal },
      );
      const toolInputs = new Map<number, boolean>();
      for await (const event of stream) {
        // Events already buffered would still come after an abort; an aborted stream ends at once.
        throwIfAborted(options.signal, `the stream of model "${this.name}"`);
        yield* withEmptyInputs(event, toolInputs);
      }
      throwIfAborted(options.signal, `the stream of model "${this.name}"`);
    } catch (error) {
      throw toAnthropicError(error, this.name, options.signal);
    }
  }
}
