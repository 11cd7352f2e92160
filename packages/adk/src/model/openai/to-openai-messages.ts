import { AdkError } from '../../errors/adk-error.js';
import { assertNever } from '../../internal/assert-never.js';
import type { AssistantMessage, ContentPart, Message } from '../../message/message.js';
import { messageText } from '../../message/message-text.js';
import type { OpenAIMessageParam, OpenAIUserContentPart } from './openai-types.js';

function textOnly(message: Message): string {
  if (typeof message.content !== 'string' && message.content.some((part) => part.type === 'image')) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      `a ${message.role} message has an image part, but OpenAI accepts images only in user messages; move the image into a user message`,
    );
  }
  return messageText(message);
}

function toUserPart(part: ContentPart): OpenAIUserContentPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'json':
      return { type: 'text', text: JSON.stringify(part.value) };
    case 'image':
      return {
        type: 'image_url',
        image_url: { url: part.url, ...(part.detail === undefined ? {} : { detail: part.detail }) },
      };
    default:
      return assertNever(part);
  }
}

function toAssistantParam(message: AssistantMessage): OpenAIMessageParam {
  const text = textOnly(message);
  const toolCalls = message.toolCalls ?? [];
  if (toolCalls.length === 0) return { role: 'assistant', content: text };
  return {
    role: 'assistant',
    content: text === '' ? null : text,
    tool_calls: toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    })),
  };
}

/**
 * Converts messages to the OpenAI chat-completions format. JSON parts become text; images are
 * allowed in user messages only (as OpenAI requires).
 *
 * @throws {AdkError} `INVALID_ARGUMENT` for an image outside a user message.
 * @example
 * ```ts
 * const body = { model: 'gpt-4o-mini', messages: toOpenAIMessages([systemMessage('Be brief.'), userMessage('Hi')]) };
 * ```
 */
export function toOpenAIMessages(messages: readonly Message[]): OpenAIMessageParam[] {
  return messages.map((message): OpenAIMessageParam => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: textOnly(message) };
      case 'user':
        return {
          role: 'user',
          content: typeof message.content === 'string' ? message.content : message.content.map(toUserPart),
        };
      case 'assistant':
        return toAssistantParam(message);
      case 'tool':
        return { role: 'tool', tool_call_id: message.toolCallId, content: textOnly(message) };
      default:
        return assertNever(message);
    }
  });
}
