/**
 * Plain JSON: what a JSON content part holds and what tool results are converted to.
 *
 * @example
 * ```ts
 * const value: JsonValue = { items: [1, 'two', null] };
 * ```
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * The author of a message.
 *
 * @example
 * ```ts
 * const role: MessageRole = 'assistant';
 * ```
 */
export type MessageRole = 'system' | 'user' | 'assistant' | 'tool';

/**
 * A piece of text.
 *
 * @example
 * ```ts
 * const part: TextPart = { type: 'text', text: 'Describe this picture:' };
 * ```
 */
export interface TextPart {
  readonly type: 'text';
  readonly text: string;
}

/**
 * Data a provider attached to a part or message that must travel with it (an OpenAI reasoning item's
 * id and encrypted content, a Gemini thought signature, …), keyed by provider. Kept in checkpoints and
 * sessions, and sent back to the provider that wrote it; other providers ignore it.
 *
 * @example
 * ```ts
 * const metadata: ProviderMetadata = { openai: { itemId: 'rs_1', encryptedContent: 'gAAA…' } };
 * ```
 */
export type ProviderMetadata = Readonly<Record<string, Readonly<Record<string, JsonValue>>>>;

/**
 * Where a media part's content is: at a URL (`https:`, or a `data:` URL), or inline as base64 `data`.
 * Bytes are held as base64 text so that messages stay plain JSON in checkpoints and sessions; build
 * such parts from a `Uint8Array` with {@link mediaPart}.
 *
 * @example
 * ```ts
 * const byUrl: MediaSource = { url: 'https://example.com/report.pdf' };
 * const inline: MediaSource = { data: 'JVBERi0xLjc=' };
 * ```
 */
export type MediaSource =
  | { readonly url: string; readonly data?: undefined }
  | { readonly data: string; readonly url?: undefined };

/**
 * An image, by URL or inline bytes (base64 `data` with its `mediaType`).
 *
 * @example
 * ```ts
 * const part: ImagePart = { type: 'image', url: 'https://example.com/cat.png', detail: 'low' };
 * const inline: ImagePart = { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' }; // base64
 * ```
 */
export type ImagePart = {
  readonly type: 'image';
  /** The IANA media type, such as `image/png`; needed for inline data by most providers. */
  readonly mediaType?: string;
  /** How closely the model should look; providers that do not support it ignore it. */
  readonly detail?: 'auto' | 'low' | 'high';
  readonly providerMetadata?: ProviderMetadata;
} & MediaSource;

/**
 * A document or other file (a PDF, a text file, …), by URL or inline bytes.
 *
 * @example
 * ```ts
 * const part: FilePart = { type: 'file', mediaType: 'application/pdf', url: 'https://example.com/a.pdf' };
 * ```
 */
export type FilePart = {
  readonly type: 'file';
  /** The IANA media type, such as `application/pdf`. */
  readonly mediaType: string;
  /** A file name some providers show the model. */
  readonly filename?: string;
  readonly providerMetadata?: ProviderMetadata;
} & MediaSource;

/**
 * A sound recording, by URL or inline bytes.
 *
 * @example
 * ```ts
 * const part: AudioPart = { type: 'audio', mediaType: 'audio/wav', data: 'UklGRiQAAABXQVZF' }; // base64
 * ```
 */
export type AudioPart = {
  readonly type: 'audio';
  /** The IANA media type, such as `audio/wav` or `audio/mpeg`. */
  readonly mediaType: string;
  readonly providerMetadata?: ProviderMetadata;
} & MediaSource;

/**
 * The model's reasoning before its answer (extended thinking, a reasoning summary), kept in the
 * assistant message so it can be sent back on the next turn, which reasoning models require around
 * tool calls. `signature` (Anthropic) proves the text unaltered; `redacted` holds reasoning the
 * provider returns only encrypted. Never part of {@link messageText}. Adapters of other providers
 * leave reasoning parts out of their requests.
 *
 * @example
 * ```ts
 * const part: ReasoningPart = { type: 'reasoning', text: 'The user wants…', signature: 'EqQBCkgIAR…' };
 * ```
 */
export interface ReasoningPart {
  readonly type: 'reasoning';
  /** The readable reasoning (or its summary); `''` when only `redacted` data exists. */
  readonly text: string;
  /** The provider's signature over the text (Anthropic thinking blocks). */
  readonly signature?: string;
  /** Encrypted reasoning the provider wants back verbatim (Anthropic redacted thinking). */
  readonly redacted?: string;
  readonly providerMetadata?: ProviderMetadata;
}

/**
 * A JSON value, such as a tool's structured result. Sent to models as its JSON text.
 *
 * @example
 * ```ts
 * const part: JsonPart = { type: 'json', value: { temperature: 21 } };
 * ```
 */
export interface JsonPart {
  readonly type: 'json';
  readonly value: JsonValue;
}

/**
 * One part of a multi-part message content.
 *
 * @example
 * ```ts
 * const parts: ContentPart[] = [{ type: 'text', text: 'What is this?' }, { type: 'image', url: 'https://example.com/cat.png' }];
 * ```
 */
export type ContentPart = TextPart | ImagePart | FilePart | AudioPart | JsonPart | ReasoningPart;

/**
 * The type tag of a content part (`'text'`, `'image'`, …), as named by {@link UnsupportedPartError}.
 *
 * @example
 * ```ts
 * const kind: ContentPartType = 'audio';
 * ```
 */
export type ContentPartType = ContentPart['type'];

/**
 * A message's content: plain text or a list of parts.
 *
 * @example
 * ```ts
 * const content: MessageContent = 'Hello';
 * ```
 */
export type MessageContent = string | readonly ContentPart[];

/**
 * A tool call requested by the model. `arguments` is the JSON text exactly as the model wrote it.
 *
 * @example
 * ```ts
 * const call: ToolCall = { id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' };
 * ```
 */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  /** Provider data that must go back with the call (e.g. a Gemini thought signature, an OpenAI item id). */
  readonly providerMetadata?: ProviderMetadata;
}

/**
 * Token counts of one model call, the same for every adapter. `inputTokens` counts every input token,
 * those read from or written to a prompt cache included (`cachedInputTokens` and `cacheWriteTokens`
 * are parts of it); `outputTokens` counts every output token, reasoning included (`reasoningTokens` is
 * a part of it). Adapters convert their provider's counts to this shape (Anthropic, for one, reports
 * cached tokens beside its input count, not inside it). The optional counts are absent when the
 * provider did not report them.
 *
 * @example
 * ```ts
 * const usage: Usage = {
 *   inputTokens: 1_200,
 *   outputTokens: 300,
 *   totalTokens: 1_500,
 *   cachedInputTokens: 1_000,
 *   reasoningTokens: 250,
 * };
 * ```
 */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
  /** Input tokens read from the provider's prompt cache (billed at the cached rate). */
  readonly cachedInputTokens?: number;
  /** Input tokens written to the provider's prompt cache (Anthropic bills them above the input rate). */
  readonly cacheWriteTokens?: number;
  /** Output tokens spent on reasoning (hidden or summarised thinking). */
  readonly reasoningTokens?: number;
}

interface MessageBase {
  /** Identifies the message in a history; `messagesReducer` replaces or removes messages by it. */
  readonly id?: string;
  readonly content: MessageContent;
  /** The agent that produced it, in multi-agent histories (never sent to the model as such). */
  readonly author?: string;
}

/**
 * Instructions for the model.
 *
 * @example
 * ```ts
 * const message: SystemMessage = { role: 'system', content: 'You are terse.' };
 * ```
 */
export interface SystemMessage extends MessageBase {
  readonly role: 'system';
}

/**
 * What the user said.
 *
 * @example
 * ```ts
 * const message: UserMessage = { role: 'user', content: 'Hi!' };
 * ```
 */
export interface UserMessage extends MessageBase {
  readonly role: 'user';
}

/**
 * What the model answered: text, tool calls, or both.
 *
 * @example
 * ```ts
 * const message: AssistantMessage = {
 *   role: 'assistant',
 *   content: '',
 *   toolCalls: [{ id: 'call_1', name: 'add', arguments: '{"a":1,"b":2}' }],
 * };
 * ```
 */
export interface AssistantMessage extends MessageBase {
  readonly role: 'assistant';
  /** The tools the model wants to call, in the order it listed them. */
  readonly toolCalls?: readonly ToolCall[];
  /** Token counts of the call that produced this message. */
  readonly usage?: Usage;
  /** Why the model stopped, in the same words for every adapter. */
  readonly finishReason?: FinishReason;
  /** Provider data about the whole response (e.g. its id), kept for the record. */
  readonly providerMetadata?: ProviderMetadata;
  /** The id of the model that wrote it, as the provider's reply says (`gpt-4o-mini-2024-07-18`). */
  readonly modelId?: string;
}

/**
 * Why a model stopped: it finished (`stop`), wants tools run (`tool-calls`), hit the token limit
 * (`length`), was filtered (`content-filter`), or something else (`other`, e.g. Anthropic's
 * `pause_turn`).
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['A long story…']);
 * const reply = await model.generate([userMessage('Tell me a story')], { maxTokens: 5 });
 * if (reply.finishReason === 'length') console.warn('the answer was cut off');
 * ```
 */
export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'other';

/**
 * The result of one tool call, answering the assistant's call with the same `toolCallId`.
 *
 * @example
 * ```ts
 * const message: ToolMessage = { role: 'tool', toolCallId: 'call_1', name: 'add', content: '3' };
 * ```
 */
export interface ToolMessage extends MessageBase {
  readonly role: 'tool';
  /** The id of the tool call this message answers. */
  readonly toolCallId: string;
  /** The name of the tool that was called. */
  readonly name: string;
  /** `'error'` when the content describes a failure (bad arguments, unknown tool, thrown error, abort). */
  readonly status?: 'success' | 'error';
}

/**
 * Any message of a conversation; narrow it by `role`.
 *
 * @example
 * ```ts
 * function describe(message: Message): string {
 *   return message.role === 'tool' ? `result of ${message.name}` : message.role;
 * }
 * ```
 */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;
