/**
 * The AI SDK provider types the bridge converts from and to (types only: nothing of `@ai-sdk/provider`
 * is loaded at run time).
 */
import type {
  LanguageModelV2,
  LanguageModelV2FinishReason,
  LanguageModelV2Usage,
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';

/**
 * A model of the AI SDK's provider interface, specification v2 (`ai` 5) or v3 (`ai` 6).
 *
 * @example
 * ```ts
 * import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
 * const baseURL = 'http://127.0.0.1:11434/v1';
 * const model: AiSdkLanguageModel = createOpenAICompatible({ name: 'local', baseURL }).chatModel('llama3.2');
 * ```
 */
export type AiSdkLanguageModel = LanguageModelV2 | LanguageModelV3;

/**
 * The call options the bridge builds (the v3 shape; v2 models take the same fields it uses).
 *
 * @example
 * ```ts
 * const options: AiSdkCallOptions = { prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] };
 * ```
 */
export type AiSdkCallOptions = LanguageModelV3CallOptions;

/**
 * A prompt in the AI SDK's provider format.
 *
 * @example
 * ```ts
 * const prompt: AiSdkPrompt = [{ role: 'system', content: 'Be brief.' }];
 * ```
 */
export type AiSdkPrompt = LanguageModelV3Prompt;

/**
 * One content item of a generate result (text, reasoning, tool call, file, …).
 *
 * @example
 * ```ts
 * const item: AiSdkContent = { type: 'text', text: 'Hello' };
 * ```
 */
export type AiSdkContent = LanguageModelV3Content;

/**
 * One part of a streamed result.
 *
 * @example
 * ```ts
 * const part: AiSdkStreamPart = { type: 'text-delta', id: '0', delta: 'Hel' };
 * ```
 */
export type AiSdkStreamPart = LanguageModelV3StreamPart;

/**
 * Token counts as v3 (nested) or v2 (flat) models report them.
 *
 * @example
 * ```ts
 * const usage: AiSdkUsage = { inputTokens: 3, outputTokens: 2, totalTokens: 5 };
 * ```
 */
export type AiSdkUsage = LanguageModelV3Usage | LanguageModelV2Usage;

/**
 * A finish reason as v3 (`{ unified, raw }`) or v2 (a string) models report it.
 *
 * @example
 * ```ts
 * const reason: AiSdkFinishReason = { unified: 'tool-calls', raw: 'tool_use' };
 * ```
 */
export type AiSdkFinishReason = LanguageModelV3FinishReason | LanguageModelV2FinishReason;
