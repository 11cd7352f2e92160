/**
 * The Anthropic Messages API types this adapter converts from and to, named once so the rest of the
 * adapter does not repeat the client's namespaces.
 */
import type { Anthropic } from '@anthropic-ai/sdk';

/**
 * A message of a Messages API request.
 *
 * @example
 * ```ts
 * const message: AnthropicMessageParam = { role: 'user', content: 'Hi' };
 * ```
 */
export type AnthropicMessageParam = Anthropic.MessageParam;

/**
 * A content block of a request message.
 *
 * @example
 * ```ts
 * const block: AnthropicBlockParam = { type: 'text', text: 'Hi' };
 * ```
 */
export type AnthropicBlockParam = Anthropic.ContentBlockParam;

/**
 * A Messages API request body (without streaming).
 *
 * @example
 * ```ts
 * const body: AnthropicRequest = { model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [] };
 * ```
 */
export type AnthropicRequest = Anthropic.MessageCreateParamsNonStreaming;

/**
 * A whole (non-streamed) Messages API response.
 *
 * @example
 * ```ts
 * import { Anthropic } from '@anthropic-ai/sdk';
 * import { startAnthropicServer } from '@weft/adk/testing';
 * const server = await startAnthropicServer({ script: ['Hello!'] });
 * const client = new Anthropic({ baseURL: server.url, apiKey: 'test' });
 * const body = { model: 'claude-sonnet-4-5', max_tokens: 256, messages: [{ role: 'user' as const, content: 'Hi' }] };
 * const response: AnthropicResponse = await client.messages.create(body);
 * ```
 */
export type AnthropicResponse = Anthropic.Message;

/**
 * One server-sent event of a streamed response.
 *
 * @example
 * ```ts
 * import { Anthropic } from '@anthropic-ai/sdk';
 * import { startAnthropicServer } from '@weft/adk/testing';
 * const server = await startAnthropicServer({ script: ['Hello!'] });
 * const client = new Anthropic({ baseURL: server.url, apiKey: 'test' });
 * const body = { model: 'claude-sonnet-4-5', max_tokens: 256, messages: [{ role: 'user' as const, content: 'Hi' }] };
 * const stream = await client.messages.create({ ...body, stream: true as const });
 * for await (const event of stream) console.log((event satisfies AnthropicStreamEvent).type); // 'message_start', …
 * ```
 */
export type AnthropicStreamEvent = Anthropic.RawMessageStreamEvent;

/**
 * Token counts in Anthropic's shape (of a response, or the running counts of a stream).
 *
 * @example
 * ```ts
 * const usage: AnthropicUsage = { input_tokens: 10, output_tokens: 3 };
 * ```
 */
export type AnthropicUsage = {
  readonly input_tokens?: number | null;
  readonly output_tokens?: number | null;
  readonly cache_read_input_tokens?: number | null;
  readonly cache_creation_input_tokens?: number | null;
  readonly output_tokens_details?: { readonly thinking_tokens: number } | null;
};
