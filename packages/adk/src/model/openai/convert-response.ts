import { ModelError } from '../../errors/model-error.js';
import type { AssistantMessage, FinishReason, Usage } from '../../message/message.js';
import type { MessageChunk, ToolCallDelta } from '../../message/message-chunk.js';
import { fromOpenAIAssistantMessage } from './from-openai-messages.js';
import type { OpenAIChunk, OpenAICompletion, OpenAIUsage } from './openai-types.js';

/**
 * Converts OpenAI's token counts into ours, cached prompt tokens and reasoning tokens included.
 *
 * @example
 * ```ts
 * fromOpenAIUsage({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }); // { inputTokens: 3, … }
 * ```
 */
export function fromOpenAIUsage(usage: OpenAIUsage): Usage {
  const cached = usage.prompt_tokens_details?.cached_tokens;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  return {
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
    totalTokens: usage.total_tokens,
    ...(typeof cached === 'number' ? { cachedInputTokens: cached } : {}),
    ...(typeof reasoning === 'number' ? { reasoningTokens: reasoning } : {}),
  };
}

/**
 * Maps an OpenAI `finish_reason` to ours.
 *
 * @example
 * ```ts
 * fromOpenAIFinishReason('tool_calls'); // 'tool-calls'
 * ```
 */
export function fromOpenAIFinishReason(reason: string | null | undefined): FinishReason | undefined {
  switch (reason) {
    case null:
    case undefined:
      return undefined;
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}

/**
 * Converts a chat completion into an assistant message (the first choice, with usage).
 *
 * @throws {ModelError} when the response has no choices.
 * @example
 * ```ts
 * import { OpenAI } from 'openai';
 * import { startOpenAICompatibleServer } from '@weft/adk/testing';
 * const server = await startOpenAICompatibleServer({ script: ['Hello!'], model: 'gpt-4o-mini' });
 * const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test' });
 * const body = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hi' }] };
 * const message = fromOpenAICompletion(await client.chat.completions.create(body)); // an assistant message 'Hello!'
 * ```
 */
export function fromOpenAICompletion(completion: OpenAICompletion): AssistantMessage {
  const choice = completion.choices[0];
  if (choice === undefined) {
    throw new ModelError(`the response of model "${completion.model}" has no choices`, { retryable: false });
  }
  const message = fromOpenAIAssistantMessage(choice.message);
  const finishReason = fromOpenAIFinishReason(choice.finish_reason);
  return {
    ...message,
    ...(completion.usage === undefined || completion.usage === null
      ? {}
      : { usage: fromOpenAIUsage(completion.usage) }),
    ...(finishReason === undefined ? {} : { finishReason }),
    ...(completion.model ? { modelId: completion.model } : {}),
  };
}

function toDeltas(chunk: OpenAIChunk): ToolCallDelta[] {
  const deltas = chunk.choices[0]?.delta.tool_calls ?? [];
  return deltas.map((delta) => {
    // A custom (free-form) tool's delta: the wire carries `custom`, which SDK 6's types do not list.
    const custom = (delta as { custom?: { name?: string | null; input?: string | null } }).custom;
    const name = delta.function?.name ?? custom?.name;
    const fragment = delta.function?.arguments ?? custom?.input;
    return {
      index: delta.index,
      ...(delta.id === undefined || delta.id === null ? {} : { id: delta.id }),
      ...(name === undefined || name === null ? {} : { name }),
      ...(fragment === undefined || fragment === null ? {} : { arguments: fragment }),
    };
  });
}

/**
 * Converts one streamed chat-completion chunk into a message chunk; `undefined` for chunks that carry
 * nothing (role-only or empty deltas).
 *
 * @example
 * ```ts
 * async function* toChunks(stream: AsyncIterable<Parameters<typeof fromOpenAIChunk>[0]>) {
 *   for await (const raw of stream) {
 *     const chunk = fromOpenAIChunk(raw);
 *     if (chunk) yield chunk;
 *   }
 * }
 * ```
 */
export function fromOpenAIChunk(chunk: OpenAIChunk): MessageChunk | undefined {
  const delta = chunk.choices[0]?.delta;
  const text = delta?.content ?? delta?.refusal ?? undefined;
  const toolCallDeltas = toDeltas(chunk);
  const usage = chunk.usage === undefined || chunk.usage === null ? undefined : fromOpenAIUsage(chunk.usage);
  const finishReason = fromOpenAIFinishReason(chunk.choices[0]?.finish_reason);
  const hasText = text !== undefined && text !== '';
  if (!hasText && toolCallDeltas.length === 0 && usage === undefined && finishReason === undefined)
    return undefined;
  return {
    ...(hasText ? { text } : {}),
    ...(toolCallDeltas.length === 0 ? {} : { toolCallDeltas }),
    ...(usage === undefined ? {} : { usage }),
    ...(finishReason === undefined ? {} : { finishReason }),
    // The model that answered, on the closing chunks (every chunk names it; one report suffices).
    ...((finishReason !== undefined || usage !== undefined) && chunk.model ? { modelId: chunk.model } : {}),
  };
}
