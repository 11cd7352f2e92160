import type { OpenAI } from 'openai';
import { UnsupportedPartError } from '../../errors/unsupported-part-error.js';
import { assertNever } from '../../internal/assert-never.js';
import { mediaUrl } from '../../message/media-part.js';
import type { AssistantMessage, ContentPart, JsonValue, Message } from '../../message/message.js';
import { messageText } from '../../message/message-text.js';
import type { ResponsesInputItem } from './responses-types.js';

type InputContent = OpenAI.Responses.ResponseInputContent;

function openaiField(
  metadata: { readonly openai?: Readonly<Record<string, JsonValue>> } | undefined,
  field: string,
) {
  const value = metadata?.openai?.[field];
  return typeof value === 'string' ? value : undefined;
}

function userContent(parts: readonly ContentPart[], model: string): InputContent[] {
  const content: InputContent[] = [];
  for (const part of parts) {
    switch (part.type) {
      case 'text':
        content.push({ type: 'input_text', text: part.text });
        break;
      case 'json':
        content.push({ type: 'input_text', text: JSON.stringify(part.value) });
        break;
      case 'image':
        content.push({ type: 'input_image', detail: part.detail ?? 'auto', image_url: mediaUrl(part) });
        break;
      case 'file':
        content.push({
          type: 'input_file',
          ...(part.url === undefined ? { file_data: mediaUrl(part) } : { file_url: part.url }),
          ...(part.filename === undefined ? {} : { filename: part.filename }),
        });
        break;
      case 'audio':
        throw new UnsupportedPartError({
          model,
          part: 'audio',
          role: 'user',
          hint: 'the Responses API takes no audio input; use chat completions',
        });
      case 'reasoning':
        break; // reasoning in a user message belongs to no model
      default:
        assertNever(part);
    }
  }
  return content;
}

function reasoningItem(part: Extract<ContentPart, { type: 'reasoning' }>): ResponsesInputItem | undefined {
  const id = openaiField(part.providerMetadata, 'itemId');
  if (id === undefined) return undefined; // reasoning of another provider: left out
  const encrypted = openaiField(part.providerMetadata, 'encryptedContent');
  return {
    type: 'reasoning',
    id,
    summary: part.text === '' ? [] : [{ type: 'summary_text', text: part.text }],
    ...(encrypted === undefined ? {} : { encrypted_content: encrypted }),
  };
}

function assistantItems(message: AssistantMessage, model: string): ResponsesInputItem[] {
  const parts =
    typeof message.content === 'string'
      ? [{ type: 'text' as const, text: message.content }]
      : message.content;
  const items: ResponsesInputItem[] = [];
  let text = '';
  for (const part of parts) {
    if (part.type === 'reasoning') {
      const item = reasoningItem(part);
      if (item !== undefined) items.push(item);
    } else if (part.type === 'text') text += part.text;
    else if (part.type === 'json') text += JSON.stringify(part.value);
    else
      throw new UnsupportedPartError({
        model,
        part: part.type,
        role: 'assistant',
        hint: 'the Responses API takes media in user messages only',
      });
  }
  if (text !== '') items.push({ role: 'assistant', content: text });
  for (const call of message.toolCalls ?? []) {
    const id = openaiField(call.providerMetadata, 'itemId');
    items.push({
      type: 'function_call',
      call_id: call.id,
      name: call.name,
      arguments: call.arguments,
      ...(id === undefined ? {} : { id }),
    });
  }
  return items;
}

function textOnly(message: Message, model: string): string {
  const media =
    typeof message.content === 'string'
      ? undefined
      : message.content.find(
          (part) => part.type === 'image' || part.type === 'file' || part.type === 'audio',
        );
  if (media !== undefined) {
    throw new UnsupportedPartError({
      model,
      part: media.type,
      role: message.role,
      hint: 'the Responses API takes media in user messages only',
    });
  }
  return messageText(message);
}

/**
 * Converts messages to Responses API input items, for stateless use (no `previous_response_id`): the
 * whole conversation is sent each time. Reasoning parts written by this API (with their item id and
 * encrypted content in `providerMetadata.openai`) go back as `reasoning` items before the assistant's
 * text and `function_call` items; tool messages become `function_call_output` items.
 *
 * @throws {UnsupportedPartError} `UNSUPPORTED_PART` for audio, or media outside user messages.
 * @example
 * ```ts
 * const input = toResponsesInput([systemMessage('Be brief.'), userMessage('Hi')], 'openai:gpt-5-mini');
 * ```
 */
export function toResponsesInput(messages: readonly Message[], model: string): ResponsesInputItem[] {
  const items: ResponsesInputItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        items.push({ role: 'system', content: textOnly(message, model) });
        break;
      case 'user':
        items.push({
          role: 'user',
          content:
            typeof message.content === 'string' ? message.content : userContent(message.content, model),
        });
        break;
      case 'assistant':
        items.push(...assistantItems(message, model));
        break;
      case 'tool':
        items.push({
          type: 'function_call_output',
          call_id: message.toolCallId,
          output: textOnly(message, model),
        });
        break;
      default:
        assertNever(message);
    }
  }
  return items;
}
