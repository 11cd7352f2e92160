import { AdkError } from '../../errors/adk-error.js';
import { ModelError } from '../../errors/model-error.js';
import type {
  AssistantMessage,
  ContentPart,
  FinishReason,
  Message,
  ReasoningPart,
  ToolCall,
  Usage,
} from '../../message/message.js';
import type { MessageChunk } from '../../message/message-chunk.js';
import type { ChatModelCallOptions } from '../chat-model.js';
import type { ResponsesRequest, ResponsesResponse, ResponsesStreamEvent } from './responses-types.js';
import { toResponsesInput } from './to-responses-input.js';

/**
 * Settings of a Responses API model that shape every request.
 *
 * @example
 * ```ts
 * const settings: ResponsesSettings = { model: 'gpt-5-mini', name: 'openai:gpt-5-mini', reasoning: { effort: 'low', summary: 'auto' } };
 * ```
 */
export interface ResponsesSettings {
  readonly model: string;
  readonly name: string;
  /** Reasoning effort and summaries; when set, encrypted reasoning is asked for so it can be sent back. */
  readonly reasoning?: {
    readonly effort?: 'minimal' | 'low' | 'medium' | 'high';
    readonly summary?: 'auto' | 'concise' | 'detailed';
  };
}

/**
 * Builds a stateless Responses API request (`store: false`, the whole conversation as input): function
 * tools, tool choice, structured output as `text.format`, reasoning with `reasoning.encrypted_content`
 * included so reasoning items can be sent back on the next call.
 *
 * @throws {AdkError} `INVALID_ARGUMENT` for `stop` (the Responses API has no stop sequences);
 * {@link UnsupportedPartError} for parts it cannot take.
 * @example
 * ```ts
 * const settings: ResponsesSettings = { model: 'gpt-5-mini', name: 'openai:gpt-5-mini' };
 * const body = toResponsesRequest([userMessage('Hi')], { maxTokens: 200 }, settings); // max_output_tokens: 200
 * ```
 */
export function toResponsesRequest(
  messages: readonly Message[],
  options: ChatModelCallOptions,
  settings: ResponsesSettings,
): ResponsesRequest {
  const { tools, toolChoice, responseFormat, temperature, maxTokens, stop } = options;
  if (stop !== undefined && stop.length > 0) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      `model "${settings.name}": the Responses API has no stop sequences; leave out the stop option or use api: 'chat'`,
    );
  }
  const hasTools = tools !== undefined && tools.length > 0;
  return {
    model: settings.model,
    input: toResponsesInput(messages, settings.name),
    store: false,
    ...(hasTools
      ? {
          tools: tools.map((spec) => ({
            type: 'function' as const,
            name: spec.name,
            description: spec.description,
            parameters: { ...spec.parameters },
            strict: false,
          })),
        }
      : {}),
    ...(hasTools && toolChoice !== undefined
      ? {
          tool_choice:
            typeof toolChoice === 'string'
              ? toolChoice
              : { type: 'function' as const, name: toolChoice.name },
        }
      : {}),
    ...(responseFormat === undefined
      ? {}
      : {
          text: {
            format: {
              type: 'json_schema' as const,
              name: responseFormat.name,
              schema: { ...responseFormat.schema },
              ...(responseFormat.strict === undefined ? {} : { strict: responseFormat.strict }),
            },
          },
        }),
    ...(settings.reasoning === undefined
      ? {}
      : { reasoning: { ...settings.reasoning }, include: ['reasoning.encrypted_content' as const] }),
    ...(temperature === undefined ? {} : { temperature }),
    ...(maxTokens === undefined ? {} : { max_output_tokens: maxTokens }),
  };
}

/**
 * Converts Responses API token counts into ours (cached input and reasoning tokens included).
 *
 * @example
 * ```ts
 * import { OpenAI } from 'openai';
 * import { startOpenAIResponsesServer } from '@weft/adk/testing';
 * const server = await startOpenAIResponsesServer({ script: ['Hello!'] });
 * const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test' });
 * const settings: ResponsesSettings = { model: 'gpt-5-mini', name: 'openai:gpt-5-mini' };
 * const body = toResponsesRequest([userMessage('Hi')], {}, settings);
 * const response = await client.responses.create(body);
 * const usage = response.usage ? fromResponsesUsage(response.usage) : undefined; // { inputTokens, outputTokens, … }
 * ```
 */
export function fromResponsesUsage(usage: NonNullable<ResponsesResponse['usage']>): Usage {
  const cached = usage.input_tokens_details?.cached_tokens;
  const reasoning = usage.output_tokens_details?.reasoning_tokens;
  return {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    totalTokens: usage.total_tokens,
    ...(typeof cached === 'number' ? { cachedInputTokens: cached } : {}),
    ...(typeof reasoning === 'number' ? { reasoningTokens: reasoning } : {}),
  };
}

function finishOf(response: ResponsesResponse, hasToolCalls: boolean): FinishReason {
  if (response.status === 'incomplete') {
    const reason = response.incomplete_details?.reason;
    return reason === 'max_output_tokens'
      ? 'length'
      : reason === 'content_filter'
        ? 'content-filter'
        : 'other';
  }
  return hasToolCalls ? 'tool-calls' : 'stop';
}

function pick(part: ReasoningPart) {
  return part.providerMetadata === undefined ? {} : { providerMetadata: part.providerMetadata };
}

type ReasoningItem = Extract<ResponsesResponse['output'][number], { type: 'reasoning' }>;

function reasoningPart(item: ReasoningItem): ReasoningPart {
  const summary = item.summary.map((part) => part.text).join('\n\n');
  return {
    type: 'reasoning',
    text: summary,
    providerMetadata: {
      openai: {
        itemId: item.id,
        ...(typeof item.encrypted_content === 'string' ? { encryptedContent: item.encrypted_content } : {}),
      },
    },
  };
}

/**
 * Converts a Responses API response into an assistant message: reasoning items become reasoning parts
 * (summary text; item id and encrypted content kept in `providerMetadata.openai`), message items the
 * text, `function_call` items tool calls; with usage, finish reason and the response id.
 *
 * @throws {ModelError} when the response failed.
 * @example
 * ```ts
 * import { OpenAI } from 'openai';
 * import { startOpenAIResponsesServer } from '@weft/adk/testing';
 * const server = await startOpenAIResponsesServer({ script: ['Hello!'] });
 * const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test' });
 * const settings: ResponsesSettings = { model: 'gpt-5-mini', name: 'openai:gpt-5-mini' };
 * const body = toResponsesRequest([userMessage('Hi')], {}, settings);
 * const message = fromResponsesResponse(await client.responses.create(body)); // an assistant message 'Hello!'
 * ```
 */
export function fromResponsesResponse(response: ResponsesResponse): AssistantMessage {
  if (response.status === 'failed') {
    throw new ModelError(`the response failed: ${response.error?.message ?? 'no reason given'}`, {
      retryable: response.error?.code === 'server_error',
    });
  }
  const reasoning: ContentPart[] = [];
  const toolCalls: ToolCall[] = [];
  let text = '';
  for (const item of response.output) {
    if (item.type === 'reasoning') reasoning.push(reasoningPart(item));
    else if (item.type === 'message') {
      for (const part of item.content) text += part.type === 'output_text' ? part.text : part.refusal;
    } else if (item.type === 'function_call') {
      toolCalls.push({
        id: item.call_id,
        name: item.name,
        arguments: item.arguments,
        ...(item.id === undefined ? {} : { providerMetadata: { openai: { itemId: item.id } } }),
      });
    }
  }
  return {
    role: 'assistant',
    content: reasoning.length === 0 ? text : text === '' ? reasoning : [...reasoning, { type: 'text', text }],
    ...(toolCalls.length === 0 ? {} : { toolCalls }),
    ...(response.usage === undefined || response.usage === null
      ? {}
      : { usage: fromResponsesUsage(response.usage) }),
    finishReason: finishOf(response, toolCalls.length > 0),
    providerMetadata: { openai: { responseId: response.id } },
    ...(response.model ? { modelId: response.model } : {}),
  };
}

/**
 * Converts Responses API stream events into message chunks. Items keep their `output_index`: reasoning
 * summaries stream as reasoning deltas (the item's id and encrypted content arrive with
 * `output_item.done`), function calls as tool-call deltas (call id and name when the item is added,
 * argument fragments after), text as text; `response.completed` brings usage and the finish reason.
 *
 * @throws {ModelError} for `error` and `response.failed` events.
 * @example
 * ```ts
 * async function* toChunks(stream: AsyncIterable<Parameters<ResponsesStreamConverter['next']>[0]>) {
 *   const convert = new ResponsesStreamConverter();
 *   for await (const event of stream) {
 *     const chunk = convert.next(event);
 *     if (chunk) yield chunk;
 *   }
 * }
 * ```
 */
export class ResponsesStreamConverter {
  #hasToolCalls = false;

  /** The chunk for one event; `undefined` for events that carry nothing for the message. */
  next(event: ResponsesStreamEvent): MessageChunk | undefined {
    switch (event.type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        return event.delta === '' ? undefined : { text: event.delta };
      case 'response.reasoning_summary_part.added':
        return event.summary_index === 0
          ? undefined
          : { reasoningDeltas: [{ index: event.output_index, text: '\n\n' }] };
      case 'response.reasoning_summary_text.delta':
        return { reasoningDeltas: [{ index: event.output_index, text: event.delta }] };
      case 'response.function_call_arguments.delta':
        return { toolCallDeltas: [{ index: event.output_index, arguments: event.delta }] };
      case 'response.output_item.added':
        return this.#added(event.item, event.output_index);
      case 'response.output_item.done':
        return event.item.type === 'reasoning'
          ? {
              reasoningDeltas: [
                {
                  index: event.output_index,
                  ...pick(reasoningPart(event.item)),
                },
              ],
            }
          : undefined;
      case 'response.completed':
      case 'response.incomplete':
        return {
          ...(event.response.usage === undefined || event.response.usage === null
            ? {}
            : { usage: fromResponsesUsage(event.response.usage) }),
          finishReason: finishOf(event.response, this.#hasToolCalls),
          providerMetadata: { openai: { responseId: event.response.id } },
          ...(event.response.model ? { modelId: event.response.model } : {}),
        };
      case 'response.failed':
        throw new ModelError(`the response failed: ${event.response.error?.message ?? 'no reason given'}`, {
          retryable: event.response.error?.code === 'server_error',
        });
      case 'error':
        throw new ModelError(`the stream failed: ${event.message}`, {
          retryable: event.code === 'server_error' || event.code === 'rate_limit_exceeded',
        });
      default:
        return undefined;
    }
  }

  #added(item: ResponsesResponse['output'][number], index: number): MessageChunk | undefined {
    if (item.type === 'function_call') {
      this.#hasToolCalls = true;
      return {
        toolCallDeltas: [
          {
            index,
            id: item.call_id,
            name: item.name,
            ...(item.arguments === '' ? {} : { arguments: item.arguments }),
            ...(item.id === undefined ? {} : { providerMetadata: { openai: { itemId: item.id } } }),
          },
        ],
      };
    }
    if (item.type === 'reasoning')
      return { reasoningDeltas: [{ index, providerMetadata: { openai: { itemId: item.id } } }] };
    return undefined;
  }
}
