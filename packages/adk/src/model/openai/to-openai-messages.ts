import { UnsupportedPartError } from '../../errors/unsupported-part-error.js';
import { assertNever } from '../../internal/assert-never.js';
import { type MediaPart, mediaUrl } from '../../message/media-part.js';
import type { AssistantMessage, ContentPart, Message } from '../../message/message.js';
import { messageText } from '../../message/message-text.js';
import type { OpenAIMessageParam, OpenAIUserContentPart } from './openai-types.js';

function textOnly(message: Message, model: string): string {
  if (typeof message.content !== 'string') {
    const media = message.content.find(
      (part) => part.type === 'image' || part.type === 'file' || part.type === 'audio',
    );
    if (media !== undefined) {
      throw new UnsupportedPartError({
        model,
        part: media.type,
        role: message.role,
        hint: 'OpenAI chat completions accept media only in user messages; move it into a user message',
      });
    }
  }
  return messageText(message);
}

const audioFormats: Readonly<Record<string, 'wav' | 'mp3'>> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
};

function toMediaPart(part: MediaPart, model: string): OpenAIUserContentPart {
  if (part.type === 'image') {
    const detail = part.detail === undefined ? {} : { detail: part.detail };
    return { type: 'image_url', image_url: { url: mediaUrl(part), ...detail } };
  }
  const format = part.type === 'audio' ? audioFormats[part.mediaType] : undefined;
  if (part.data === undefined || (part.type === 'audio' && format === undefined)) {
    throw new UnsupportedPartError({
      model,
      part: part.type,
      role: 'user',
      hint:
        part.data === undefined
          ? `OpenAI chat completions take ${part.type}s as inline bytes only, not by URL; fetch it and pass its bytes`
          : `OpenAI chat completions take wav or mp3 audio, not ${part.mediaType}`,
    });
  }
  if (part.type === 'audio')
    return { type: 'input_audio', input_audio: { data: part.data, format: format ?? 'wav' } };
  return {
    type: 'file',
    file: { file_data: mediaUrl(part), ...(part.filename === undefined ? {} : { filename: part.filename }) },
  };
}

function toUserParts(parts: readonly ContentPart[], model: string): OpenAIUserContentPart[] {
  const converted: OpenAIUserContentPart[] = [];
  for (const part of parts) {
    switch (part.type) {
      case 'text':
        converted.push({ type: 'text', text: part.text });
        break;
      case 'json':
        converted.push({ type: 'text', text: JSON.stringify(part.value) });
        break;
      case 'reasoning':
        break; // reasoning belongs to the model that wrote it; chat completions cannot take it back
      case 'image':
      case 'file':
      case 'audio':
        converted.push(toMediaPart(part, model));
        break;
      default:
        assertNever(part);
    }
  }
  return converted;
}

function toAssistantParam(message: AssistantMessage, model: string): OpenAIMessageParam {
  const text = textOnly(message, model);
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
 * Converts messages to the OpenAI chat-completions format. JSON parts become text; media is allowed
 * in user messages only (as OpenAI requires): images by URL or bytes (as a `data:` URL), files and
 * wav/mp3 audio as bytes. Reasoning parts are left out (chat completions cannot take them back).
 * `model` names the model in errors.
 *
 * @throws {UnsupportedPartError} `UNSUPPORTED_PART` for media outside a user message, a file or audio
 * by URL, or audio other than wav/mp3.
 * @example
 * ```ts
 * const body = { model: 'gpt-4o-mini', messages: toOpenAIMessages([systemMessage('Be brief.'), userMessage('Hi')]) };
 * ```
 */
export function toOpenAIMessages(messages: readonly Message[], model = 'openai'): OpenAIMessageParam[] {
  return messages.map((message): OpenAIMessageParam => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: textOnly(message, model) };
      case 'user':
        return {
          role: 'user',
          content:
            typeof message.content === 'string' ? message.content : toUserParts(message.content, model),
        };
      case 'assistant':
        return toAssistantParam(message, model);
      case 'tool':
        return { role: 'tool', tool_call_id: message.toolCallId, content: textOnly(message, model) };
      default:
        return assertNever(message);
    }
  });
}
