import type { OpenAI } from 'openai';
import { throwIfAborted } from '../../internal/abort.js';
import type { AssistantMessage, Message } from '../../message/message.js';
import type { MessageChunk } from '../../message/message-chunk.js';
import type { ChatModelCallOptions } from '../chat-model.js';
import {
  fromResponsesResponse,
  type ResponsesSettings,
  ResponsesStreamConverter,
  toResponsesRequest,
} from './convert-responses.js';
import { toModelError } from './to-model-error.js';

/**
 * One whole call of the Responses API, as `OpenAIChatModel.generate` makes it with `api: 'responses'`.
 *
 * @throws {ModelError} when the call fails; `ABORTED` on abort.
 * @example
 * ```ts
 * import { OpenAI } from 'openai';
 * import { startOpenAIResponsesServer } from '@weft/adk/testing';
 * const server = await startOpenAIResponsesServer({ script: ['Hello!'] });
 * const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test' });
 * const settings = { model: 'gpt-5-mini', name: 'openai:gpt-5-mini' };
 * const reply = await generateWithResponses(client, [userMessage('Hi')], {}, settings); // 'Hello!'
 * ```
 */
export async function generateWithResponses(
  client: OpenAI,
  messages: readonly Message[],
  options: ChatModelCallOptions,
  settings: ResponsesSettings,
): Promise<AssistantMessage> {
  try {
    const body = toResponsesRequest(messages, options, settings);
    const response = await client.responses.create(
      body,
      options.signal === undefined ? {} : { signal: options.signal },
    );
    return fromResponsesResponse(response);
  } catch (error) {
    throw toModelError(error, settings.name, options.signal);
  }
}

/**
 * One streamed call of the Responses API, as `OpenAIChatModel.stream` makes it with `api: 'responses'`.
 *
 * @throws {ModelError} when the call or the stream fails; `ABORTED` on abort.
 * @example
 * ```ts
 * import { OpenAI } from 'openai';
 * import { startOpenAIResponsesServer } from '@weft/adk/testing';
 * const server = await startOpenAIResponsesServer({ script: ['Hello!'] });
 * const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test' });
 * const settings = { model: 'gpt-5-mini', name: 'openai:gpt-5-mini' };
 * const messages = [userMessage('Hi')];
 * for await (const chunk of streamWithResponses(client, messages, {}, settings)) process.stdout.write(chunk.text ?? '');
 * ```
 */
export async function* streamWithResponses(
  client: OpenAI,
  messages: readonly Message[],
  options: ChatModelCallOptions,
  settings: ResponsesSettings,
): AsyncIterable<MessageChunk> {
  try {
    const body = { ...toResponsesRequest(messages, options, settings), stream: true as const };
    const stream = await client.responses.create(
      body,
      options.signal === undefined ? {} : { signal: options.signal },
    );
    const converter = new ResponsesStreamConverter();
    for await (const event of stream) {
      throwIfAborted(options.signal, `the stream of model "${settings.name}"`);
      const chunk = converter.next(event);
      if (chunk !== undefined) yield chunk;
    }
    throwIfAborted(options.signal, `the stream of model "${settings.name}"`);
  } catch (error) {
    throw toModelError(error, settings.name, options.signal);
  }
}
