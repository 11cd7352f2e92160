export type { Agent } from './agent/agent.js';
export type { AgentRunConfig, ChatModelAgentOptions } from './agent/agent-config.js';
export {
  AGENT_CONTEXT_KEY,
  type AgentRunContext,
  type AgentScope,
  agentContextOf,
  agentPath,
  chunkBranch,
  eventBranch,
  reportAgentEvent,
  type SafePoint,
  streamsModel,
} from './agent/agent-context.js';
export type { AgentGraph, AgentInput, AgentNode } from './agent/agent-graph.js';
export {
  type AgentState,
  agentReducers,
  agentStateSchema,
  deltaReducer,
  RESET_DELTA,
} from './agent/agent-state.js';
export { EXIT_TOOL, exitTool } from './agent/agent-tools-node.js';
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
export { historyFor } from './agent/history-view.js';
export {
  type Instruction,
  type InstructionContext,
  renderInstruction,
  resolveInstruction,
} from './agent/instruction.js';
export { InvocationState } from './agent/invocation-state.js';
export type { AgentMiddleware, AgentSkip, MiddlewareContext, ModelRequest } from './agent/middleware.js';
export { buildReactGraph } from './agent/react-graph.js';
export type { ResolvedAgent } from './agent/resolved-agent.js';
export {
  createToolNode,
  type ToolNodeOptions,
  type ToolNodeState,
  type ToolNodeUpdate,
} from './agent/tool-node.js';
export type { Artifact, ArtifactInput, ArtifactService } from './artifact/artifact-service.js';
export { USER_ARTIFACT_PREFIX } from './artifact/artifact-service.js';
export { FileArtifactService } from './artifact/file-artifact-service.js';
export { LOAD_ARTIFACTS_TOOL, loadArtifactsTool } from './artifact/load-artifacts-tool.js';
export { StoreArtifactService } from './artifact/store-artifact-service.js';
export { RecordedArtifacts, type ToolArtifacts } from './artifact/tool-artifacts.js';
export {
  type CompactionOptions,
  compaction,
} from './context/compaction.js';
export {
  DEFAULT_SUMMARY_INSTRUCTION,
  type SummarizeOptions,
  summarizeMessages,
  toTranscript,
} from './context/compaction-summary.js';
export { type ContextEventType, reportContextEvent } from './context/context-event.js';
export {
  type Phase,
  type PhaseSettings,
  type PhasesOptions,
  type PhaseView,
  phaseOf,
  phases,
} from './context/phases.js';
export {
  type AssembledPrompt,
  assembleSections,
  type PromptSection,
  type PromptSectionsOptions,
  promptSections,
  type ResolvedSection,
} from './context/prompt-sections.js';
export {
  callsInCategory,
  categoryUsedThisTurn,
  compactedForThisCall,
  isNewResult,
  iterationsWithoutProgress,
  type ProgressPredicate,
} from './context/reminder-triggers.js';
export {
  type ReminderRule,
  type RemindersOptions,
  type ReminderTrigger,
  reminders,
} from './context/reminders.js';
export {
  type ApproximateTokenEstimatorOptions,
  approximateTokenEstimator,
  defaultTokenEstimator,
  type TokenEstimator,
} from './context/token-estimator.js';
export {
  type CompactionSplit,
  isCompactionSummary,
  isContextNote,
  SUMMARY_ID_PREFIX,
  splitForCompaction,
  splitTurns,
  TASK_REMINDER_ID_PREFIX,
} from './context/turns.js';
export { AdkError, type AdkErrorCode } from './errors/adk-error.js';
export { MaxIterationsError } from './errors/max-iterations-error.js';
export { ModelError, type ModelErrorOptions } from './errors/model-error.js';
export { ToolError, type ToolErrorCode, type ToolErrorOptions } from './errors/tool-error.js';
export {
  UnsupportedPartError,
  type UnsupportedPartErrorOptions,
} from './errors/unsupported-part-error.js';
export type { AgentEvent, AgentEventInit, AgentInterrupt, EventActions } from './event/agent-event.js';
export { LOAD_MEMORY_TOOL, loadMemoryTool } from './memory/load-memory-tool.js';
export { memorize } from './memory/memorize.js';
export {
  DEFAULT_EXTRACTION_INSTRUCTION,
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
export { type RecallOptions, recall, recallSection } from './memory/recall.js';
export { sessionKeyOf } from './memory/session-key-of.js';
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
export {
  type DetectedToolCalls,
  detectToolCalls,
  streamUntilToolCall,
  type ToolCallDetection,
} from './model/detect-tool-calls.js';
export { isRetryableError } from './model/is-retryable-error.js';
export {
  type ModelFactory,
  type ModelRegistry,
  modelRegistry,
  resolveModel,
} from './model/model-registry.js';
export { fromOpenAIChunk, fromOpenAICompletion } from './model/openai/convert-response.js';
export { fromOpenAIAssistantMessage, fromOpenAIMessages } from './model/openai/from-openai-messages.js';
export { OpenAIChatModel, type OpenAIChatModelOptions } from './model/openai/openai-chat-model.js';
export { OpenAIEmbeddings, type OpenAIEmbeddingsOptions } from './model/openai/openai-embeddings.js';
export { toOpenAIMessages } from './model/openai/to-openai-messages.js';
export {
  addUsage,
  type Cost,
  costOf,
  defaultPrices,
  type ModelPrice,
  type PriceTable,
  priceOf,
} from './model/price-lookup.js';
export { priceTable } from './model/price-table.js';
export { costOfSummary, type SummaryCost } from './model/usage-cost.js';
export { type FallbackOptions, withFallback } from './model/with-fallback.js';
export { type RetryOptions, withRetry } from './model/with-retry.js';
export type { CheckHandBacks, HandBackTargets, TeamAgentNames } from './multi/agent-names.js';
export { AgentTool, type AgentToolOptions } from './multi/agent-tool.js';
export { HandBackAgent, withDeterministicTransfer } from './multi/deterministic-transfer.js';
export { EXIT_LOOP_TOOL, exitLoopTool } from './multi/exit-loop-tool.js';
export { conversationFor } from './multi/hand-off-view.js';
export { LoopAgent, type LoopAgentOptions } from './multi/loop-agent.js';
export { ParallelAgent, type ParallelAgentOptions } from './multi/parallel-agent.js';
export { SequentialAgent, type SequentialAgentOptions } from './multi/sequential-agent.js';
export { createTeam, Team, type TeamOptions } from './multi/team.js';
export { isTeamMember, type TeamMember, type TransferRules, withTransfer } from './multi/team-member.js';
export {
  type HandOffContext,
  type HandOffRecord,
  handOffRecordOf,
  type TeamPlace,
  TRANSFER_TOOL,
  type TransferTarget,
  transferInstruction,
  transferTool,
} from './multi/transfer.js';
export {
  AgentGraphCache,
  type AgentStateUpdate,
  checkAgentName,
  type MultiAgentGraph,
  multiAgentGraph,
  multiAgentReducers,
  startTurn,
} from './multi/workflow-graph.js';
export type { CancelMode, CancelOptions } from './runner/cancel-state.js';
export { type RunPassThrough, threadOf } from './runner/invocation.js';
export { Runner, type RunnerOptions, type RunnerResource, type SessionRef } from './runner/runner.js';
export {
  type AfterRunHook,
  type BeforeRunHook,
  type BeforeRunResult,
  type RunEndContext,
  type RunnerPlugin,
  RunRefusedError,
  type RunStartContext,
} from './runner/runner-plugin.js';
export type { ExpiredSession, WaitingTimeout } from './runner/session-lifecycle.js';
export { TurnLoop, type TurnLoopOptions } from './runner/turn-loop.js';
export {
  type RunningTurn,
  TURN_LOOP_KEY,
  type TurnItem,
  type TurnLoopState,
  TurnQueueStore,
} from './runner/turn-queue.js';
export { MemorySessionService } from './session/memory-session-service.js';
export type { RunIdentity } from './session/run-identity.js';
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
  newSessionKey,
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
  applyStatusChange,
  SESSION_STATUSES,
  type SessionStatus,
  type SessionStatusChange,
  SessionStatusError,
  type SessionStatusInfo,
  type SessionStatusQuery,
  statusFilter,
} from './session/session-status.js';
export {
  type ExecuteToolCallsOptions,
  executeToolCalls,
  type ToolEmitEvent,
} from './tool/execute-tool-calls.js';
export { type JsonSchemaToolDefinition, jsonSchemaTool } from './tool/json-schema-tool.js';
export type { ParsedToolArguments } from './tool/parse-tool-arguments.js';
export { type PendingToolResult, pending, type ToolPendingRequest } from './tool/pending-result.js';
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
export { isToolResult, type ToolResult, toolResult } from './tool/tool-result.js';
