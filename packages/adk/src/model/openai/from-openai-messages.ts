import { AdkError } from '../../errors/adk-error.js';
import type { AssistantMessage, ContentPart, Message, ToolCall } from '../../message/message.js';
import {
  assistantMessage,
  systemMessage,
  toolMessage,
  userMessage,
} from '../../message/message-constructors.js';
import type {
  OpenAIMessageParam,
  OpenAIResponseMessage,
  OpenAIToolCall,
  OpenAIUserContentPart,
} from './openai-types.js';

type TextLikePart = { type: 'text'; text: string } | { type: 'refusal'; refusal: string };

function joinText(content: string | readonly TextLikePart[] | null | undefined): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : part.refusal)).join('');
}

function fromUserPart(part: OpenAIUserContentPart): ContentPart {
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.type === 'image_url') {
    const { url, detail } = part.image_url;
    // `original` (newer models) is sent as it is; Weft's parts carry only low/high/auto.
    return detail === undefined || (detail as string) === 'original'
      ? { type: 'image', url }
      : { type: 'image', url, detail };
  }
  throw new AdkError('INVALID_ARGUMENT', `OpenAI content parts of type "${part.type}" are not supported`);
}

function fromToolCall(call: OpenAIToolCall): ToolCall {
  if (call.type === 'function')
    return { id: call.id, name: call.function.name, arguments: call.function.arguments };
  return { id: call.id, name: call.custom.name, arguments: call.custom.input };
}

/**
 * Converts an OpenAI assistant message (from a response or from a request) into ours.
 *
 * @example
 * ```ts
 * import { OpenAI } from 'openai';
 * import { startOpenAICompatibleServer } from '@weft/adk/testing';
 * const server = await startOpenAICompatibleServer({ script: ['Hello!'], model: 'gpt-4o-mini' });
 * const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test' });
 * const body = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hi' }] };
 * const completion = await client.chat.completions.create(body);
 * const message = fromOpenAIAssistantMessage(completion.choices[0]!.message); // an assistant message 'Hello!'
 * ```
 */
export function fromOpenAIAssistantMessage(
  message: OpenAIResponseMessage | Extract<OpenAIMessageParam, { role: 'assistant' }>,
): AssistantMessage {
  const text = joinText(message.content) || (message.refusal ?? '');
  return assistantMessage(text, { toolCalls: (message.tool_calls ?? []).map(fromToolCall) });
}

function fromParam(message: OpenAIMessageParam, toolNames: ReadonlyMap<string, string>): Message {
  switch (message.role) {
    case 'system':
    case 'developer':
      return systemMessage(joinText(message.content));
    case 'user':
      return userMessage(
        typeof message.content === 'string' ? message.content : message.content.map(fromUserPart),
      );
    case 'assistant':
      return fromOpenAIAssistantMessage(message);
    case 'tool':
      return toolMessage(joinText(message.content), {
        toolCallId: message.tool_call_id,
        name: toolNames.get(message.tool_call_id) ?? '',
      });
    default:
      throw new AdkError('INVALID_ARGUMENT', `OpenAI messages with role "${message.role}" are not supported`);
  }
}

/**
 * Converts OpenAI chat-completions messages into ours. Developer messages become system messages;
 * tool messages get their tool name from the assistant call they answer.
 *
 * @throws {AdkError} `INVALID_ARGUMENT` for legacy `function` messages and audio or file parts.
 * @example
 * ```ts
 * const history = fromOpenAIMessages([{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!' }]);
 * ```
 */
export function fromOpenAIMessages(messages: readonly OpenAIMessageParam[]): Message[] {
  const toolNames = new Map<string, string>();
  return messages.map((message) => {
    const converted = fromParam(message, toolNames);
    if (converted.role === 'assistant')
      for (const call of converted.toolCalls ?? []) toolNames.set(call.id, call.name);
    return converted;
  });
}
