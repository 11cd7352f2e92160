import type {
  LanguageModelV3Message,
  LanguageModelV3ToolResultOutput,
  SharedV3ProviderOptions,
} from '@ai-sdk/provider';
import { UnsupportedPartError } from '../../errors/unsupported-part-error.js';
import { assertNever } from '../../internal/assert-never.js';
import type { MediaPart } from '../../message/media-part.js';
import type {
  AssistantMessage,
  ContentPart,
  Message,
  ProviderMetadata,
  ToolMessage,
} from '../../message/message.js';
import { messageText } from '../../message/message-text.js';
import type { AiSdkPrompt } from './ai-sdk-types.js';

type UserContent = Extract<LanguageModelV3Message, { role: 'user' }>['content'];
type AssistantContent = Extract<LanguageModelV3Message, { role: 'assistant' }>['content'];
type ProviderOptions = SharedV3ProviderOptions;

/** Provider metadata goes back as the part's provider options (the same record, by the AI SDK's contract). */
function optionsOf(metadata: ProviderMetadata | undefined): { providerOptions?: ProviderOptions } {
  // Readonly records of JSON values: the same data the provider wrote, shaped as its options.
  return metadata === undefined ? {} : { providerOptions: metadata as ProviderOptions };
}

function toFilePart(part: MediaPart) {
  const mediaType = part.mediaType ?? (part.type === 'image' ? 'image/*' : 'application/octet-stream');
  return {
    type: 'file' as const,
    mediaType,
    data: part.url === undefined ? part.data : new URL(part.url),
    ...(part.type === 'file' && part.filename !== undefined ? { filename: part.filename } : {}),
    ...optionsOf(part.providerMetadata),
  };
}

function userContent(parts: readonly ContentPart[]): UserContent {
  const content: UserContent = [];
  for (const part of parts) {
    if (part.type === 'text') content.push({ type: 'text', text: part.text });
    else if (part.type === 'json') content.push({ type: 'text', text: JSON.stringify(part.value) });
    else if (part.type !== 'reasoning') content.push(toFilePart(part));
  }
  return content;
}

function reasoningOptions(part: Extract<ContentPart, { type: 'reasoning' }>): {
  providerOptions?: ProviderOptions;
} {
  if (part.providerMetadata !== undefined) return optionsOf(part.providerMetadata);
  if (part.signature !== undefined) return optionsOf({ anthropic: { signature: part.signature } });
  if (part.redacted !== undefined) return optionsOf({ anthropic: { redactedData: part.redacted } });
  return {};
}

function parseInput(text: string): unknown {
  try {
    return JSON.parse(text === '' ? '{}' : text);
  } catch {
    return text; // not JSON: the tool already answered with the error; keep what the model wrote
  }
}

function assistantContent(message: AssistantMessage): AssistantContent {
  const parts =
    typeof message.content === 'string'
      ? [{ type: 'text' as const, text: message.content }]
      : message.content;
  const content: AssistantContent = [];
  for (const part of parts) {
    switch (part.type) {
      case 'text':
        if (part.text !== '') content.push({ type: 'text', text: part.text });
        break;
      case 'json':
        content.push({ type: 'text', text: JSON.stringify(part.value) });
        break;
      case 'reasoning':
        content.push({ type: 'reasoning', text: part.text, ...reasoningOptions(part) });
        break;
      case 'image':
      case 'file':
      case 'audio':
        content.push(toFilePart(part));
        break;
      default:
        assertNever(part);
    }
  }
  for (const call of message.toolCalls ?? []) {
    content.push({
      type: 'tool-call',
      toolCallId: call.id,
      toolName: call.name,
      input: parseInput(call.arguments),
      ...optionsOf(call.providerMetadata),
    });
  }
  return content;
}

function toolOutput(message: ToolMessage): LanguageModelV3ToolResultOutput {
  const parts = typeof message.content === 'string' ? [] : message.content;
  const only = parts.length === 1 ? parts[0] : undefined;
  if (message.status === 'error') return { type: 'error-text', value: messageText(message) };
  if (only?.type === 'json') return { type: 'json', value: only.value };
  return { type: 'text', value: messageText(message) };
}

function checkTextOnly(message: Message, model: string): void {
  if (typeof message.content === 'string') return;
  const media = message.content.find(
    (part) => part.type === 'image' || part.type === 'file' || part.type === 'audio',
  );
  if (media !== undefined) {
    throw new UnsupportedPartError({
      model,
      part: media.type,
      role: message.role,
      hint: 'the AI SDK takes media in user and assistant messages only',
    });
  }
}

/**
 * Converts messages to the AI SDK's provider prompt. Media become `file` parts (by URL or base64
 * data, with the media type); reasoning parts go back as `reasoning` parts carrying their provider
 * metadata as provider options (so each provider finds its signatures and item ids); tool calls carry
 * theirs too. Consecutive tool messages form one `tool` message; JSON results stay JSON.
 *
 * @throws {UnsupportedPartError} `UNSUPPORTED_PART` for media in a system or tool message.
 * @example
 * ```ts
 * const prompt = toAiSdkPrompt([systemMessage('Be brief.'), userMessage('Hi')], 'openai:gpt-4o-mini');
 * ```
 */
export function toAiSdkPrompt(messages: readonly Message[], model: string): AiSdkPrompt {
  const prompt: AiSdkPrompt = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        checkTextOnly(message, model);
        prompt.push({ role: 'system', content: messageText(message) });
        break;
      case 'user':
        prompt.push({
          role: 'user',
          content:
            typeof message.content === 'string'
              ? [{ type: 'text', text: message.content }]
              : userContent(message.content),
        });
        break;
      case 'assistant':
        prompt.push({ role: 'assistant', content: assistantContent(message) });
        break;
      case 'tool': {
        checkTextOnly(message, model);
        const result = {
          type: 'tool-result' as const,
          toolCallId: message.toolCallId,
          toolName: message.name,
          output: toolOutput(message),
        };
        const last = prompt.at(-1);
        if (last?.role === 'tool') last.content.push(result);
        else prompt.push({ role: 'tool', content: [result] });
        break;
      }
      default:
        assertNever(message);
    }
  }
  return prompt;
}
