/**
 * `@weft/adk/anthropic` — for users of Anthropic's models: `AnthropicChatModel` over the Messages API
 * (thinking, prompt caching, tools, media) and the converters between Anthropic's shapes and adk's
 * `Message`. `@anthropic-ai/sdk` is an optional peer dependency loaded only by this entry (ADR 011).
 *
 * @packageDocumentation
 */
export { AnthropicChatModel, type AnthropicChatModelOptions } from './anthropic-chat-model.js';
export type {
  AnthropicBlockParam,
  AnthropicMessageParam,
  AnthropicRequest,
  AnthropicResponse,
  AnthropicStreamEvent,
  AnthropicUsage,
} from './anthropic-types.js';
export { type AnthropicRequestSettings, toAnthropicRequest } from './convert-anthropic-request.js';
export {
  fromAnthropicEvent,
  fromAnthropicResponse,
  fromAnthropicStopReason,
  fromAnthropicUsage,
} from './convert-anthropic-response.js';
export { toAnthropicError } from './to-anthropic-error.js';
export { type AnthropicConversation, toAnthropicMessages } from './to-anthropic-messages.js';
