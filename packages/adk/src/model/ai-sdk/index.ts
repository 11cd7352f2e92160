/**
 * `@weft/adk/ai-sdk` — for users of any Vercel AI SDK provider model: `fromAiSdk(model)` makes a
 * `LanguageModelV2`/`V3` an adk `ChatModel`. It imports only types from `@ai-sdk/provider`, an optional
 * peer dependency (ADR 011).
 *
 * @packageDocumentation
 */
export { type FromAiSdkOptions, fromAiSdk } from './ai-sdk-chat-model.js';
export { AiSdkStreamConverter, readStream } from './ai-sdk-stream.js';
export type {
  AiSdkCallOptions,
  AiSdkContent,
  AiSdkFinishReason,
  AiSdkLanguageModel,
  AiSdkPrompt,
  AiSdkStreamPart,
  AiSdkUsage,
} from './ai-sdk-types.js';
export { fromAiSdkContent, fromAiSdkFinishReason, fromAiSdkUsage } from './convert-ai-sdk-result.js';
export { toAiSdkError } from './to-ai-sdk-error.js';
export { toAiSdkPrompt } from './to-ai-sdk-prompt.js';
