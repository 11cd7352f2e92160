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
