/**
 * `@weft/adk` — for users building and running agents: `ChatModelAgent` and the multi-agent patterns
 * (`SequentialAgent`, `ParallelAgent`, `LoopAgent`, `Team`, `AgentTool`), tools, messages, the
 * `ChatModel` interface with `withRetry`/`withFallback`/`modelRegistry`, the `Runner` with its sessions
 * and `TurnLoop`, long-term memory and artifacts, guardrails and human approval, and the errors to
 * catch. Other audiences have their own entries: `@weft/adk/openai` (and `/anthropic`, `/ai-sdk`) for
 * model adapters, `@weft/adk/context` for context engineering, `@weft/adk/prices` for costs,
 * `@weft/adk/testing` for scripted models, `@weft/adk/session-store` for store authors and
 * `@weft/adk/agent-graph` for authors of new agent kinds (docs/adr/024-entry-points-by-audience.md).
 *
 * @example
 * ```ts
 * import { ChatModelAgent, MemorySessionService, Runner } from '@weft/adk';
 * import { ScriptedChatModel } from '@weft/adk/testing';
 *
 * const agent = new ChatModelAgent({ name: 'greeter', model: new ScriptedChatModel(['Hello!']) });
 * const runner = new Runner({ agent, sessionService: new MemorySessionService() });
 * for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'Hi' })) {
 *   if (!event.partial && event.message) console.log(event.author, event.message.content);
 * }
 * ```
 *
 * @packageDocumentation
 */
export type { Agent } from './agent/agent.js';
export type { ChatModelAgentOptions } from './agent/agent-config.js';
export type { AgentGraph } from './agent/agent-graph.js';
export { type ToolApprovalRequest, type ToolDecision, toolDecisions } from './agent/approval.js';
export { ChatModelAgent } from './agent/chat-model-agent.js';
export {
  type GuardrailOptions,
  GuardrailTripwireError,
  type GuardrailVerdict,
  guardrails,
  type InputGuardrail,
  type OutputGuardrail,
  type ToolGuardrail,
  type ToolGuardrailDecision,
} from './agent/guardrails.js';
export type { Instruction, InstructionContext } from './agent/instruction.js';
export type {
  AgentMiddleware,
  AgentSkip,
  MiddlewareContext,
  ModelRequest,
  ToolSkip,
} from './agent/middleware.js';
export {
  type Artifact,
  type ArtifactInput,
  type ArtifactService,
  USER_ARTIFACT_PREFIX,
} from './artifact/artifact-service.js';
export { FileArtifactService } from './artifact/file-artifact-service.js';
export { loadArtifactsTool } from './artifact/load-artifacts-tool.js';
export { StoreArtifactService } from './artifact/store-artifact-service.js';
export { AdkError, type AdkErrorCode } from './errors/adk-error.js';
export { MaxIterationsError } from './errors/max-iterations-error.js';
export { ModelError, type ModelErrorOptions } from './errors/model-error.js';
export { ToolError, type ToolErrorCode, type ToolErrorOptions } from './errors/tool-error.js';
export {
  UnsupportedPartError,
  type UnsupportedPartErrorOptions,
} from './errors/unsupported-part-error.js';
export type { AgentEvent, AgentInterrupt, EventActions } from './event/agent-event.js';
export { loadMemoryTool } from './memory/load-memory-tool.js';
export { memorize } from './memory/memorize.js';
export {
  type MemoryDraft,
  type MemoryExtractionContext,
  type MemoryExtractor,
  modelExtractor,
  verbatimExtractor,
} from './memory/memory-extractor.js';
export type {
  MemoryEntry,
  MemoryScope,
  MemorySearchOptions,
  MemoryService,
} from './memory/memory-service.js';
export { type RecallOptions, recall } from './memory/recall.js';
export type { SessionMemory } from './memory/session-memory.js';
export { StoreMemoryService, type StoreMemoryServiceOptions } from './memory/store-memory-service.js';
export {
  type WorkingMemory,
  type WorkingMemoryOptions,
  workingMemory,
} from './memory/working-memory.js';
export {
  type MediaPart,
  type MediaPartInit,
  mediaBytes,
  mediaPart,
  mediaUrl,
} from './message/media-part.js';
export type {
  AssistantMessage,
  AudioPart,
  ContentPart,
  ContentPartType,
  FilePart,
  FinishReason,
  ImagePart,
  JsonPart,
  JsonValue,
  MediaSource,
  Message,
  MessageContent,
  MessageRole,
  ProviderMetadata,
  ReasoningPart,
  SystemMessage,
  TextPart,
  ToolCall,
  ToolMessage,
  Usage,
  UserMessage,
} from './message/message.js';
export {
  concatMessageChunks,
  type MessageChunk,
  type ReasoningDelta,
  type ToolCallDelta,
} from './message/message-chunk.js';
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
export { isRetryableError } from './model/is-retryable-error.js';
export { type ModelFactory, type ModelRegistry, modelRegistry } from './model/model-registry.js';
export type { PriceTable } from './model/price-lookup.js';
export { priceTable } from './model/price-table.js';
export { type FallbackOptions, withFallback } from './model/with-fallback.js';
export { type RetryOptions, withRetry } from './model/with-retry.js';
export { AgentTool, type AgentToolOptions } from './multi/agent-tool.js';
export { withDeterministicTransfer } from './multi/deterministic-transfer.js';
export { EXIT_LOOP_TOOL, exitLoopTool } from './multi/exit-loop-tool.js';
export { LoopAgent, type LoopAgentOptions } from './multi/loop-agent.js';
export { ParallelAgent, type ParallelAgentOptions } from './multi/parallel-agent.js';
export { SequentialAgent, type SequentialAgentOptions } from './multi/sequential-agent.js';
export { createTeam, Team, type TeamOptions } from './multi/team.js';
export { type TeamMember, type TransferRules, withTransfer } from './multi/team-member.js';
export type { HandOffContext } from './multi/transfer.js';
export type { CancelMode, CancelOptions } from './runner/cancel-state.js';
export { Runner, type RunnerOptions, type RunnerResource, type SessionRef } from './runner/runner.js';
export {
  type AfterRunHook,
  type BeforeRunHook,
  type BeforeRunResult,
  type OnEventHook,
  type RunEndContext,
  type RunEventContext,
  type RunnerPlugin,
  RunRefusedError,
  type RunStartContext,
} from './runner/runner-plugin.js';
export type { ExpiredSession, WaitingTimeout } from './runner/session-lifecycle.js';
export type { RunnerCallbacks, TurnInfo } from './runner/turn-callbacks.js';
export { TurnLoop, type TurnLoopOptions } from './runner/turn-loop.js';
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
  type SessionStatus,
  SessionStatusError,
  type SessionStatusInfo,
} from './session/session-status.js';
export { type JsonSchemaToolDefinition, jsonSchemaTool } from './tool/json-schema-tool.js';
export { type PendingToolResult, pending, type ToolPendingRequest } from './tool/pending-result.js';
export type { SessionState } from './tool/session-state.js';
export {
  type AnyTool,
  type Tool,
  type ToolDefinition,
  type ToolParameters,
  tool,
} from './tool/tool.js';
export type { ToolContext } from './tool/tool-context.js';
export { type ToolResult, toolResult } from './tool/tool-result.js';
