import type {
  AssistantMessage,
  FinishReason,
  MessageContent,
  ProviderMetadata,
  SystemMessage,
  ToolCall,
  ToolMessage,
  Usage,
  UserMessage,
} from './message.js';

/**
 * Options shared by every message constructor.
 *
 * @example
 * ```ts
 * const message = userMessage('Hi', { id: 'u1' });
 * ```
 */
export interface MessageOptions {
  /** The message id (see `messagesReducer`). */
  readonly id?: string;
}

/**
 * Options of {@link assistantMessage}.
 *
 * @example
 * ```ts
 * const reply = assistantMessage('Done', { usage: { inputTokens: 9, outputTokens: 1, totalTokens: 10 } });
 * ```
 */
export interface AssistantMessageOptions extends MessageOptions {
  readonly toolCalls?: readonly ToolCall[];
  readonly usage?: Usage;
  readonly finishReason?: FinishReason;
  readonly providerMetadata?: ProviderMetadata;
}

/**
 * Options of {@link toolMessage}.
 *
 * @example
 * ```ts
 * const result = toolMessage('3', { toolCallId: 'call_1', name: 'add', status: 'success' });
 * ```
 */
export interface ToolMessageOptions extends MessageOptions {
  /** The id of the tool call this message answers. */
  readonly toolCallId: string;
  /** The name of the tool that was called. */
  readonly name: string;
  readonly status?: 'success' | 'error';
}

/**
 * A message while its constructor adds its optional fields. They are added to the one object, not
 * spread into a new one, so every message of a kind shares V8's hidden classes (a spread's copy made a
 * new one per message, and every later read of a message field missed its inline cache).
 */
export type Building<T> = { -readonly [K in keyof T]: T[K] };

function withId<T extends { id?: string | undefined }>(
  message: Building<T>,
  options: MessageOptions | undefined,
): T {
  if (options?.id !== undefined) message.id = options.id;
  return message;
}

/**
 * Creates a system message.
 *
 * @example
 * ```ts
 * const instructions = systemMessage('You are a helpful assistant.');
 * ```
 */
export function systemMessage(content: MessageContent, options?: MessageOptions): SystemMessage {
  return withId<SystemMessage>({ role: 'system', content }, options);
}

/**
 * Creates a user message.
 *
 * @example
 * ```ts
 * const question = userMessage([{ type: 'text', text: 'What is this?' }, { type: 'image', url: 'https://example.com/cat.png' }]);
 * ```
 */
export function userMessage(content: MessageContent, options?: MessageOptions): UserMessage {
  return withId<UserMessage>({ role: 'user', content }, options);
}

/**
 * Creates an assistant message, optionally with tool calls, usage, finish reason and provider metadata.
 *
 * @example
 * ```ts
 * const reply = assistantMessage('', { toolCalls: [{ id: 'call_1', name: 'add', arguments: '{"a":1,"b":2}' }] });
 * ```
 */
export function assistantMessage(
  content: MessageContent,
  options?: AssistantMessageOptions,
): AssistantMessage {
  const message: Building<AssistantMessage> = { role: 'assistant', content };
  if (options?.toolCalls !== undefined && options.toolCalls.length > 0) message.toolCalls = options.toolCalls;
  if (options?.usage !== undefined) message.usage = options.usage;
  if (options?.finishReason !== undefined) message.finishReason = options.finishReason;
  if (options?.providerMetadata !== undefined) message.providerMetadata = options.providerMetadata;
  return withId(message, options);
}

/**
 * Creates a tool message answering the tool call `toolCallId`.
 *
 * @example
 * ```ts
 * const result = toolMessage('3', { toolCallId: 'call_1', name: 'add' });
 * ```
 */
export function toolMessage(content: MessageContent, options: ToolMessageOptions): ToolMessage {
  const message: Building<ToolMessage> = {
    role: 'tool',
    content,
    toolCallId: options.toolCallId,
    name: options.name,
  };
  if (options.status !== undefined) message.status = options.status;
  return withId(message, options);
}
