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
 * import { OpenAI } from 'openai';
 * import { startOpenAIResponsesServer } from '@weft/adk/testing';
 * const server = await startOpenAIResponsesServer({ script: ['Hello!'] });
 * const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test' });
 * const settings = { model: 'gpt-5-mini', name: 'openai:gpt-5-mini' };
 * const body = { model: settings.model, input: 'Hi' };
 * const response: ResponsesResponse = await client.responses.create(body);
 * ```
 */
export type ResponsesResponse = OpenAI.Responses.Response;

/**
 * One streamed Responses API event.
 *
 * @example
 * ```ts
 * import { OpenAI } from 'openai';
 * import { startOpenAIResponsesServer } from '@weft/adk/testing';
 * const server = await startOpenAIResponsesServer({ script: ['Hello!'] });
 * const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test' });
 * const settings = { model: 'gpt-5-mini', name: 'openai:gpt-5-mini' };
 * const body = { model: settings.model, input: 'Hi' };
 * const stream = await client.responses.create({ ...body, stream: true as const });
 * for await (const event of stream) console.log((event satisfies ResponsesStreamEvent).type); // 'response.created', …
 * ```
 */
export type ResponsesStreamEvent = OpenAI.Responses.ResponseStreamEvent;
