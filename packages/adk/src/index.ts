export type { Agent } from './agent/agent.js';
export type { AgentRunConfig, ChatModelAgentOptions } from './agent/agent-config.js';
export {
  AGENT_CONTEXT_KEY,
  type AgentEventInit,
  type AgentRunContext,
  agentContextOf,
  type SafePoint,
} from './agent/agent-context.js';
export {
  type AgentState,
  agentReducers,
  agentStateSchema,
  deltaReducer,
  RESET_DELTA,
} from './agent/agent-state.js';
export { EXIT_TOOL, exitTool } from './agent/agent-tools-node.js';
export { type ToolApprovalRequest, type ToolDecision, toolDecisions } from './agent/approval.js';
export { type AgentGraph, type AgentNode, ChatModelAgent } from './agent/chat-model-agent.js';
export { historyFor } from './agent/history-view.js';
export {
  type Instruction,
  type InstructionContext,
  renderInstruction,
  resolveInstruction,
} from './agent/instruction.js';
export { InvocationState } from './agent/invocation-state.js';
export type { AgentInput } from './agent/lifecycle-nodes.js';
export type { AgentMiddleware, MiddlewareContext, ModelRequest } from './agent/middleware.js';
export type { ResolvedAgent } from './agent/resolved-agent.js';
export {
  createToolNode,
  type ToolNodeOptions,
  type ToolNodeState,
  type ToolNodeUpdate,
} from './agent/tool-node.js';
export { AdkError, type AdkErrorCode } from './errors/adk-error.js';
export { MaxIterationsError } from './errors/max-iterations-error.js';
export { ModelError, type ModelErrorOptions } from './errors/model-error.js';
export { ToolError, type ToolErrorCode, type ToolErrorOptions } from './errors/tool-error.js';
export type { AgentEvent, AgentInterrupt, EventActions } from './event/agent-event.js';
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
export type { CancelMode, CancelOptions } from './runner/cancel-state.js';
export { threadOf } from './runner/invocation.js';
export { Runner, type RunnerOptions, type SessionRef } from './runner/runner.js';
export { MemorySessionService } from './session/memory-session-service.js';
export {
  APP_PREFIX,
  type GetSessionOptions,
  type Session,
  type SessionKey,
  type SessionService,
  type SessionSummary,
  TEMP_PREFIX,
  USER_PREFIX,
} from './session/session.js';
export {
  assertCommittableEvent,
  assertGetSessionOptions,
  assertSessionNames,
  duplicateEventError,
  isAtLeastAsNew,
  type StateScope,
  type StateWrite,
  sessionExistsError,
  sessionNotFoundError,
  stateScopeOf,
  toCommittedEvent,
  toJsonText,
  toStateWrites,
  type WriteStamp,
} from './session/session-commit.js';
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
