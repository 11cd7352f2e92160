import { UnsupportedPartError } from '../../errors/unsupported-part-error.js';
import { assertNever } from '../../internal/assert-never.js';
import type { MediaPart } from '../../message/media-part.js';
import type { AssistantMessage, ContentPart, Message, ToolMessage } from '../../message/message.js';
import { messageText } from '../../message/message-text.js';
import type { AnthropicBlockParam, AnthropicMessageParam } from './anthropic-types.js';

type ImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
const imageTypes = new Set<string>(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

function unsupported(model: string, part: MediaPart, role: Message['role'], hint: string): never {
  throw new UnsupportedPartError({ model, part: part.type, role, hint });
}

function toImageBlock(part: MediaPart, model: string, role: Message['role']): AnthropicBlockParam {
  if (part.url !== undefined) return { type: 'image', source: { type: 'url', url: part.url } };
  const mediaType = part.mediaType ?? '';
  if (!imageTypes.has(mediaType)) {
    unsupported(
      model,
      part,
      role,
      `Anthropic takes jpeg, png, gif or webp images, not "${mediaType || 'unknown'}"`,
    );
  }
  return {
    type: 'image',
    source: { type: 'base64', media_type: mediaType as ImageMediaType, data: part.data },
  };
}

function toDocumentBlock(part: MediaPart & { type: 'file' }, model: string, role: Message['role']) {
  const title = part.filename === undefined ? {} : { title: part.filename };
  if (part.mediaType === 'application/pdf') {
    const source =
      part.url !== undefined
        ? { type: 'url' as const, url: part.url }
        : { type: 'base64' as const, media_type: 'application/pdf' as const, data: part.data };
    return { type: 'document' as const, source, ...title };
  }
  if (part.mediaType === 'text/plain' && part.data !== undefined) {
    const data = new TextDecoder().decode(Uint8Array.from(atob(part.data), (char) => char.charCodeAt(0)));
    return {
      type: 'document' as const,
      source: { type: 'text' as const, media_type: 'text/plain' as const, data },
      ...title,
    };
  }
  return unsupported(
    model,
    part,
    role,
    `Anthropic takes PDF files (by URL or bytes) and text/plain bytes, not ${part.mediaType}`,
  );
}

function toBlocks(
  parts: readonly ContentPart[],
  model: string,
  role: Message['role'],
): AnthropicBlockParam[] {
  const blocks: AnthropicBlockParam[] = [];
  for (const part of parts) {
    switch (part.type) {
      case 'text':
        if (part.text !== '') blocks.push({ type: 'text', text: part.text });
        break;
      case 'json':
        blocks.push({ type: 'text', text: JSON.stringify(part.value) });
        break;
      case 'image':
        blocks.push(toImageBlock(part, model, role));
        break;
      case 'file':
        blocks.push(toDocumentBlock(part, model, role));
        break;
      case 'audio':
        unsupported(model, part, role, 'Anthropic models do not take audio; transcribe it first');
        break;
      case 'reasoning':
        if (role === 'assistant' && part.signature !== undefined)
          blocks.push({ type: 'thinking', thinking: part.text, signature: part.signature });
        else if (role === 'assistant' && part.redacted !== undefined)
          blocks.push({ type: 'redacted_thinking', data: part.redacted });
        break; // reasoning without Anthropic's signature came from another provider: left out
      default:
        assertNever(part);
    }
  }
  return blocks;
}

function isMedia(part: ContentPart): part is MediaPart {
  return part.type === 'image' || part.type === 'file' || part.type === 'audio';
}

function parseInput(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text === '' ? '{}' : text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { value };
  } catch {
    return {}; // the model wrote arguments that are not JSON; the tool already answered with the error
  }
}

function assistantBlocks(message: AssistantMessage, model: string): AnthropicBlockParam[] {
  const content =
    typeof message.content === 'string'
      ? [{ type: 'text' as const, text: message.content }]
      : message.content;
  const blocks = toBlocks(content, model, 'assistant');
  for (const call of message.toolCalls ?? []) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: parseInput(call.arguments) });
  }
  return blocks;
}

function toolResultBlock(message: ToolMessage, model: string): AnthropicBlockParam {
  const parts =
    typeof message.content === 'string'
      ? [{ type: 'text' as const, text: message.content }]
      : message.content;
  const inner = toBlocks(parts, model, 'tool').filter(
    (block): block is Extract<AnthropicBlockParam, { type: 'text' | 'image' | 'document' }> =>
      block.type === 'text' || block.type === 'image' || block.type === 'document',
  );
  return {
    type: 'tool_result',
    tool_use_id: message.toolCallId,
    content: inner.length === 0 ? messageText(message) : inner,
    ...(message.status === 'error' ? { is_error: true } : {}),
  };
}

/**
 * The parts of an Anthropic request made of messages: the system text blocks (from every system
 * message, in order) and the conversation.
 *
 * @example
 * ```ts
 * const history = [systemMessage('Be brief.'), userMessage('Hi')];
 * const { system, messages } = toAnthropicMessages(history, 'anthropic:claude-sonnet-4-5'); // system: [{ type: 'text', text: 'Be brief.' }]
 * ```
 */
export interface AnthropicConversation {
  readonly system: { type: 'text'; text: string }[];
  readonly messages: AnthropicMessageParam[];
}

/**
 * Converts messages to the Anthropic Messages format: system messages become the `system` blocks;
 * tool messages become `tool_result` blocks of a user turn; consecutive turns of the same role are
 * merged (Anthropic alternates user and assistant). Reasoning parts with a signature go back as
 * `thinking` blocks, redacted ones as `redacted_thinking`; others are left out. Images go by URL or
 * bytes (jpeg, png, gif, webp), PDFs as documents, text/plain bytes as text documents.
 *
 * @throws {UnsupportedPartError} `UNSUPPORTED_PART` for audio, another file type or image type, or
 * media in a system message.
 * @example
 * ```ts
 * const { system, messages } = toAnthropicMessages([systemMessage('Be brief.'), userMessage('Hi')], 'anthropic:claude');
 * ```
 */
export function toAnthropicMessages(messages: readonly Message[], model: string): AnthropicConversation {
  const system: { type: 'text'; text: string }[] = [];
  const turns: { role: 'user' | 'assistant'; content: AnthropicBlockParam[] }[] = [];
  const push = (role: 'user' | 'assistant', blocks: AnthropicBlockParam[]) => {
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system': {
        const media = typeof message.content === 'string' ? undefined : message.content.find(isMedia);
        if (media !== undefined) unsupported(model, media, 'system', 'put media in a user message');
        system.push({ type: 'text', text: messageText(message) });
        break;
      }
      case 'user':
        push(
          'user',
          typeof message.content === 'string'
            ? [{ type: 'text', text: message.content }]
            : toBlocks(message.content, model, 'user'),
        );
        break;
      case 'assistant':
        push('assistant', assistantBlocks(message, model));
        break;
      case 'tool':
        push('user', [toolResultBlock(message, model)]);
        break;
      default:
        assertNever(message);
    }
  }
  return { system: system.filter((block) => block.text !== ''), messages: turns };
}
