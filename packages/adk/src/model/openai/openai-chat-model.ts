import { registerSecret } from '@weft/compose';
import { OpenAI } from 'openai';
import { AdkError } from '../../errors/adk-error.js';
import { throwIfAborted } from '../../internal/abort.js';
import type { AssistantMessage, Message } from '../../message/message.js';
import type { MessageChunk } from '../../message/message-chunk.js';
import type { ChatModel, ChatModelCallOptions } from '../chat-model.js';
import { type RequestSettings, toOpenAIRequest } from './convert-request.js';
import { fromOpenAIChunk, fromOpenAICompletion } from './convert-response.js';
import type { ResponsesSettings } from './convert-responses.js';
import { generateWithResponses, streamWithResponses } from './responses-calls.js';
import { toModelError } from './to-model-error.js';

/**
 * Options of {@link OpenAIChatModel}.
 *
 * @example
 * ```ts
 * const options: OpenAIChatModelOptions = { baseURL: 'http://localhost:11434/v1', model: 'llama3.2' };
 * ```
 */
export interface OpenAIChatModelOptions {
  /** The model id (default: `OPENAI_MODEL`). */
  readonly model?: string;
  /** The API key (default: `OPENAI_API_KEY`; a placeholder for a custom `baseURL` without one, e.g. Ollama). */
  readonly apiKey?: string;
  /** The endpoint, e.g. `http://localhost:11434/v1` (default: `OPENAI_BASE_URL`, else OpenAI's). */
  readonly baseURL?: string;
  /** The model's name in logs and events (default `openai:<model>`). */
  readonly name?: string;
  /**
   * The provider as traces name it (`gen_ai.provider.name`; default `openai`): e.g. `azure.ai.openai`
   * for Azure, or your server's name for another OpenAI-compatible endpoint.
   */
  readonly provider?: string;
  /** Retries of the `openai` client itself (default 0: wrap the model in `withRetry` instead). */
  readonly maxRetries?: number;
  /** Timeout of one request in milliseconds (the client's default: 10 minutes). */
  readonly timeoutMs?: number;
  /** Headers sent with every request. */
  readonly defaultHeaders?: Readonly<Record<string, string>>;
  /** Which field carries `maxTokens` (default `max_tokens`, the one most compatible servers accept). */
  readonly maxTokensParameter?: 'max_tokens' | 'max_completion_tokens';
  /** Ask for token usage at the end of streams (`stream_options.include_usage`, default true). */
  readonly streamUsage?: boolean;
  /**
   * Which OpenAI API to call: chat completions (default; every compatible server has it) or the
   * Responses API (OpenAI's newer one: reasoning items kept and sent back, used statelessly with
   * `store: false`, no `previous_response_id`).
   */
  readonly api?: 'chat' | 'responses';
  /** Responses API only: reasoning effort and summaries (encrypted reasoning is then kept and sent back). */
  readonly reasoning?: ResponsesSettings['reasoning'];
  /** A client to use instead of creating one (e.g. an `AzureOpenAI`); then `apiKey`, `baseURL`, … are ignored. */
  readonly client?: OpenAI;
  /** Where the defaults are read from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

function createClient(
  options: OpenAIChatModelOptions,
  env: Readonly<Record<string, string | undefined>>,
): OpenAI {
  const baseURL = options.baseURL ?? env.OPENAI_BASE_URL;
  const apiKey = options.apiKey ?? env.OPENAI_API_KEY ?? (baseURL === undefined ? undefined : 'unused');
  if (apiKey === undefined) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      'OpenAIChatModel has no API key: pass { apiKey } or set OPENAI_API_KEY (or pass a baseURL for a server that needs none)',
    );
  }
  // The key never shows in an error message, span or stored error (a 401 body may echo it).
  registerSecret(apiKey);
  return new OpenAI({
    apiKey,
    baseURL: baseURL ?? null,
    maxRetries: options.maxRetries ?? 0,
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    ...(options.defaultHeaders === undefined ? {} : { defaultHeaders: { ...options.defaultHeaders } }),
  });
}

/**
 * A {@link ChatModel} for any OpenAI-compatible chat-completions endpoint (OpenAI, Azure, Ollama, vLLM,
 * LM Studio, …) through the official `openai` client: tools, tool choice, structured output, streaming
 * with tool-call deltas and usage, and abort. Failures are {@link ModelError}s (status, retryable).
 * With `api: 'responses'` it calls OpenAI's Responses API instead: streamed output items, function
 * calls, reasoning items kept in the message (summary, item id, encrypted content) and sent back,
 * stateless (`store: false`), structured output as `text.format`.
 *
 * @throws {AdkError} `INVALID_ARGUMENT` from the constructor when no model or no API key is configured.
 * @example
 * ```ts
 * const model = withRetry(new OpenAIChatModel({ model: 'gpt-4o-mini' }));
 * const reply = await model.generate([userMessage('Say hi')], { temperature: 0 });
 * const thinker = new OpenAIChatModel({ model: 'gpt-5-mini', api: 'responses', reasoning: { effort: 'low', summary: 'auto' } });
 * ```
 */
export class OpenAIChatModel implements ChatModel {
  readonly name: string;
  /** The model id sent with each request. */
  readonly model: string;
  readonly provider: string;
  /** The model id sent with each request (the same as `model`). */
  readonly modelId: string;
  readonly #client: OpenAI;
  readonly #settings: RequestSettings;
  readonly #streamUsage: boolean;
  readonly #responses: ResponsesSettings | undefined;

  constructor(options: OpenAIChatModelOptions = {}) {
    const env = options.env ?? process.env;
    const model = options.model ?? env.OPENAI_MODEL;
    if (model === undefined || model === '') {
      throw new AdkError(
        'INVALID_ARGUMENT',
        'OpenAIChatModel has no model: pass { model } or set OPENAI_MODEL',
      );
    }
    this.model = model;
    this.modelId = model;
    this.provider = options.provider ?? 'openai';
    this.name = options.name ?? `openai:${model}`;
    this.#client = options.client ?? createClient(options, env);
    this.#settings = { model, maxTokensParameter: options.maxTokensParameter ?? 'max_tokens' };
    this.#streamUsage = options.streamUsage ?? true;
    this.#responses =
      options.api === 'responses'
        ? {
            model,
            name: this.name,
            ...(options.reasoning === undefined ? {} : { reasoning: options.reasoning }),
          }
        : undefined;
  }

  async generate(
    messages: readonly Message[],
    options: ChatModelCallOptions = {},
  ): Promise<AssistantMessage> {
    if (this.#responses !== undefined)
      return generateWithResponses(this.#client, messages, options, this.#responses);
    const body = toOpenAIRequest(messages, options, this.#settings);
    try {
      const completion = await this.#client.chat.completions.create(
        body,
        options.signal === undefined ? {} : { signal: options.signal },
      );
      return fromOpenAICompletion(completion);
    } catch (error) {
      throw toModelError(error, this.name, options.signal);
    }
  }

  async *stream(
    messages: readonly Message[],
    options: ChatModelCallOptions = {},
  ): AsyncIterable<MessageChunk> {
    if (this.#responses !== undefined) {
      yield* streamWithResponses(this.#client, messages, options, this.#responses);
      return;
    }
    const body = {
      ...toOpenAIRequest(messages, options, this.#settings),
      stream: true as const,
      ...(this.#streamUsage ? { stream_options: { include_usage: true } } : {}),
    };
    try {
      const stream = await this.#client.chat.completions.create(
        body,
        options.signal === undefined ? {} : { signal: options.signal },
      );
      for await (const raw of stream) {
        const chunk = fromOpenAIChunk(raw);
        if (chunk !== undefined) yield chunk;
      }
      // The client ends a stream quietly when it is aborted; an aborted stream must not look complete.
      throwIfAborted(options.signal, `the stream of model "${this.name}"`);
    } catch (error) {
      throw toModelError(error, this.name, options.signal);
    }
  }
}
