/**
 * The OpenAI Responses API types the adapter converts from and to.
 */
import type { OpenAI } from 'openai';

/**
 * One item of a Responses request's `input`.
 *
 * @example
 * ```ts
 * const item: ResponsesInputItem = { role: 'user', content: 'Hi' };
 * ```
 */
export type ResponsesInputItem = OpenAI.Responses.ResponseInputItem;

/**
 * A Responses API request body (without streaming).
 *
 * @example
 * ```ts
 * const body: ResponsesRequest = { model: 'gpt-5-mini', input: [], store: false };
 * ```
 */
export type ResponsesRequest = OpenAI.Responses.ResponseCreateParamsNonStreaming;

/**
 * A whole Responses API response.
 *
 * @example
 * ```ts
 * const response: ResponsesResponse = await client.responses.create(body);
 * ```
 */
export type ResponsesResponse = OpenAI.Responses.Response;

/**
 * One streamed Responses API event.
 *
 * @example
 * ```ts
 * for await (const event of stream) handle(event satisfies ResponsesStreamEvent);
 * ```
 */
export type ResponsesStreamEvent = OpenAI.Responses.ResponseStreamEvent;
