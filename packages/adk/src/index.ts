export { AdkError, type AdkErrorCode } from './errors/adk-error.js';
export { ModelError, type ModelErrorOptions } from './errors/model-error.js';
export { ToolError, type ToolErrorCode, type ToolErrorOptions } from './errors/tool-error.js';
export type {
  AssistantMessage,
  ContentPart,
  ImagePart,
  JsonPart,
  JsonValue,
  Message,
  MessageContent,
  MessageRole,
  SystemMessage,
  TextPart,
  ToolCall,
  ToolMessage,
  Usage,
  UserMessage,
} from './message/message.js';
export { concatMessageChunks, type MessageChunk, type ToolCallDelta } from './message/message-chunk.js';
export {
  type AssistantMessageOptions,
  assistantMessage,
  type MessageOptions,
  systemMessage,
  type ToolMessageOptions,
  toolMessage,
  userMessage,
} from './message/message-constructors.js';
export { messageText } from './message/message-text.js';
export {
  type MessagesUpdate,
  messagesReducer,
  type RemoveAllMessages,
  type RemoveMessage,
  removeAllMessages,
  removeMessage,
} from './message/messages-reducer.js';
export type {
  ChatModel,
  ChatModelCallOptions,
  JsonSchema,
  ResponseFormat,
  ToolChoice,
  ToolSpec,
} from './model/chat-model.js';
export {
  type DetectedToolCalls,
  detectToolCalls,
  streamUntilToolCall,
  type ToolCallDetection,
} from './model/detect-tool-calls.js';
export { isRetryableError } from './model/is-retryable-error.js';
export { fromOpenAIChunk, fromOpenAICompletion } from './model/openai/convert-response.js';
export { fromOpenAIAssistantMessage, fromOpenAIMessages } from './model/openai/from-openai-messages.js';
export { OpenAIChatModel, type OpenAIChatModelOptions } from './model/openai/openai-chat-model.js';
export { toOpenAIMessages } from './model/openai/to-openai-messages.js';
export { type FallbackOptions, withFallback } from './model/with-fallback.js';
export { type RetryOptions, withRetry } from './model/with-retry.js';
export {
  type ExecuteToolCallsOptions,
  executeToolCalls,
  type ToolEmitEvent,
} from './tool/execute-tool-calls.js';
export type { ParsedToolArguments } from './tool/parse-tool-arguments.js';
export { MemorySessionState, type SessionState } from './tool/session-state.js';
export {
  type AnyTool,
  type Tool,
  type ToolDefinition,
  type ToolParameters,
  tool,
  zodToJsonSchema,
} from './tool/tool.js';
export type { ToolContext } from './tool/tool-context.js';
