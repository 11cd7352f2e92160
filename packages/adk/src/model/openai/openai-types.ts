/**
 * The OpenAI chat-completions types this adapter converts from and to, named once so the rest of the
 * adapter does not repeat the client's namespaces.
 */
import type { OpenAI } from 'openai';

/**
 * A message of a chat-completions request.
 *
 * @example
 * ```ts
 * const message: OpenAIMessageParam = { role: 'user', content: 'Hi' };
 * ```
 */
export type OpenAIMessageParam = OpenAI.ChatCompletionMessageParam;

/**
 * The assistant message of a chat-completions response.
 *
 * @example
 * ```ts
 * const message: OpenAIResponseMessage = { role: 'assistant', content: 'Hello', refusal: null };
 * ```
 */
export type OpenAIResponseMessage = OpenAI.ChatCompletionMessage;

/**
 * A whole (non-streamed) chat-completions response.
 *
 * @example
 * ```ts
 * import { OpenAI } from 'openai';
 * import { startOpenAICompatibleServer } from '@weft/adk/testing';
 * const server = await startOpenAICompatibleServer({ script: ['Hello!'], model: 'gpt-4o-mini' });
 * const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test' });
 * const body = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hi' }] };
 * const completion: OpenAICompletion = await client.chat.completions.create(body);
 * ```
 */
export type OpenAICompletion = OpenAI.ChatCompletion;

/**
 * One streamed chat-completions chunk.
 *
 * @example
 * ```ts
 * import { OpenAI } from 'openai';
 * import { startOpenAICompatibleServer } from '@weft/adk/testing';
 * const server = await startOpenAICompatibleServer({ script: ['Hello!'], model: 'gpt-4o-mini' });
 * const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test' });
 * const body = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hi' }] };
 * const stream = await client.chat.completions.create({ ...body, stream: true as const });
 * for await (const chunk of stream) process.stdout.write((chunk satisfies OpenAIChunk).choices[0]?.delta.content ?? '');
 * ```
 */
export type OpenAIChunk = OpenAI.ChatCompletionChunk;

/**
 * A chat-completions request body (without streaming).
 *
 * @example
 * ```ts
 * const body: OpenAIRequest = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] };
 * ```
 */
export type OpenAIRequest = OpenAI.ChatCompletionCreateParamsNonStreaming;

/**
 * Token counts in OpenAI's shape.
 *
 * @example
 * ```ts
 * const usage: OpenAIUsage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };
 * ```
 */
export type OpenAIUsage = NonNullable<OpenAI.ChatCompletion['usage']>;

/**
 * A tool call of an assistant message (function or custom).
 *
 * @example
 * ```ts
 * const call: OpenAIToolCall = { id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } };
 * ```
 */
export type OpenAIToolCall = OpenAI.ChatCompletionMessageToolCall;

/**
 * A content part of a user message.
 *
 * @example
 * ```ts
 * const part: OpenAIUserContentPart = { type: 'image_url', image_url: { url: 'https://example.com/a.png' } };
 * ```
 */
export type OpenAIUserContentPart = OpenAI.ChatCompletionContentPart;
