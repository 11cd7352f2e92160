import { ModelError } from '../../errors/model-error.js';
import type { AssistantMessage, ContentPart, FinishReason, ToolCall, Usage } from '../../message/message.js';
import type { MessageChunk } from '../../message/message-chunk.js';
import type { AnthropicResponse, AnthropicStreamEvent, AnthropicUsage } from './anthropic-types.js';

/**
 * Converts Anthropic's token counts into ours: Anthropic counts cache reads and writes beside
 * `input_tokens`, so they are added into `inputTokens` (and reported as `cachedInputTokens` and
 * `cacheWriteTokens`); thinking tokens become `reasoningTokens`. Counts it did not report are left out.
 *
 * @example
 * ```ts
 * fromAnthropicUsage({ input_tokens: 5, cache_read_input_tokens: 100, output_tokens: 9 });
 * // { inputTokens: 105, cachedInputTokens: 100, outputTokens: 9 }
 * ```
 */
export function fromAnthropicUsage(usage: AnthropicUsage): Partial<Usage> {
  const read = usage.cache_read_input_tokens ?? 0;
  const written = usage.cache_creation_input_tokens ?? 0;
  const input = usage.input_tokens;
  const thinking = usage.output_tokens_details?.thinking_tokens;
  return {
    ...(input === undefined || input === null ? {} : { inputTokens: input + read + written }),
    ...(usage.output_tokens === undefined || usage.output_tokens === null
      ? {}
      : { outputTokens: usage.output_tokens }),
    ...(usage.cache_read_input_tokens === undefined || usage.cache_read_input_tokens === null
      ? {}
      : { cachedInputTokens: read }),
    ...(usage.cache_creation_input_tokens === undefined || usage.cache_creation_input_tokens === null
      ? {}
      : { cacheWriteTokens: written }),
    ...(typeof thinking === 'number' ? { reasoningTokens: thinking } : {}),
  };
}

/**
 * Maps an Anthropic `stop_reason` to ours.
 *
 * @example
 * ```ts
 * fromAnthropicStopReason('tool_use'); // 'tool-calls'
 * ```
 */
export function fromAnthropicStopReason(reason: string | null | undefined): FinishReason | undefined {
  switch (reason) {
    case null:
    case undefined:
      return undefined;
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool-calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content-filter';
    default:
      return 'other';
  }
}

/**
 * Converts a whole Messages API response into an assistant message: thinking blocks become reasoning
 * parts (with their signature), text blocks the text, `tool_use` blocks tool calls; with usage, stop
 * reason and the response id as provider metadata.
 *
 * @example
 * ```ts
 * import { Anthropic } from '@anthropic-ai/sdk';
 * import { startAnthropicServer } from '@weft/adk/testing';
 * const server = await startAnthropicServer({ script: ['Hello!'] });
 * const client = new Anthropic({ baseURL: server.url, apiKey: 'test' });
 * const body = { model: 'claude-sonnet-4-5', max_tokens: 256, messages: [{ role: 'user' as const, content: 'Hi' }] };
 * const message = fromAnthropicResponse(await client.messages.create(body)); // an assistant message 'Hello!'
 * ```
 */
export function fromAnthropicResponse(response: AnthropicResponse): AssistantMessage {
  const reasoning: ContentPart[] = [];
  const toolCalls: ToolCall[] = [];
  let text = '';
  for (const block of response.content) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'thinking')
      reasoning.push({ type: 'reasoning', text: block.thinking, signature: block.signature });
    else if (block.type === 'redacted_thinking')
      reasoning.push({ type: 'reasoning', text: '', redacted: block.data });
    else if (block.type === 'tool_use') {
      toolCalls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) });
    }
  }
  const usage = fromAnthropicUsage(response.usage);
  const finishReason = fromAnthropicStopReason(response.stop_reason);
  const inputTokens = usage.inputTokens ?? 0;
  const outputTokens = usage.outputTokens ?? 0;
  return {
    role: 'assistant',
    content: reasoning.length === 0 ? text : text === '' ? reasoning : [...reasoning, { type: 'text', text }],
    ...(toolCalls.length === 0 ? {} : { toolCalls }),
    usage: { ...usage, inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
    ...(finishReason === undefined ? {} : { finishReason }),
    providerMetadata: { anthropic: { messageId: response.id } },
    ...(response.model ? { modelId: response.model } : {}),
  };
}

/**
 * Converts one streamed event into a message chunk; `undefined` for events that carry nothing.
 * Content blocks keep their index: thinking blocks stream as reasoning deltas (text, then the
 * signature), `tool_use` blocks as tool-call deltas (id and name at the start, `input_json` fragments
 * after), text as text.
 *
 * @throws {ModelError} for an `error` event in the stream (e.g. `overloaded_error`, retryable).
 * @example
 * ```ts
 * async function* toChunks(stream: AsyncIterable<AnthropicStreamEvent>) {
 *   for await (const event of stream) {
 *     const chunk = fromAnthropicEvent(event);
 *     if (chunk) yield chunk;
 *   }
 * }
 * ```
 */
export function fromAnthropicEvent(
  event: AnthropicStreamEvent | { type: 'error'; error: { type: string; message: string } },
): MessageChunk | undefined {
  switch (event.type) {
    case 'message_start':
      return {
        providerMetadata: { anthropic: { messageId: event.message.id } },
        usage: fromAnthropicUsage(event.message.usage),
        ...(event.message.model ? { modelId: event.message.model } : {}),
      };
    case 'content_block_start': {
      const block = event.content_block;
      if (block.type === 'tool_use')
        return { toolCallDeltas: [{ index: event.index, id: block.id, name: block.name }] };
      if (block.type === 'redacted_thinking')
        return { reasoningDeltas: [{ index: event.index, redacted: block.data }] };
      if (block.type === 'thinking')
        return { reasoningDeltas: [{ index: event.index, text: block.thinking }] };
      if (block.type === 'text' && block.text !== '') return { text: block.text };
      return undefined;
    }
    case 'content_block_delta': {
      const delta = event.delta;
      if (delta.type === 'text_delta') return { text: delta.text };
      if (delta.type === 'input_json_delta')
        return { toolCallDeltas: [{ index: event.index, arguments: delta.partial_json }] };
      if (delta.type === 'thinking_delta')
        return { reasoningDeltas: [{ index: event.index, text: delta.thinking }] };
      if (delta.type === 'signature_delta')
        return { reasoningDeltas: [{ index: event.index, signature: delta.signature }] };
      return undefined;
    }
    case 'message_delta': {
      const finishReason = fromAnthropicStopReason(event.delta.stop_reason);
      return {
        usage: fromAnthropicUsage(event.usage),
        ...(finishReason === undefined ? {} : { finishReason }),
      };
    }
    case 'error':
      throw new ModelError(`the stream failed: ${event.error.type}: ${event.error.message}`, {
        retryable:
          event.error.type === 'overloaded_error' ||
          event.error.type === 'api_error' ||
          event.error.type === 'rate_limit_error',
      });
    default:
      return undefined;
  }
}
