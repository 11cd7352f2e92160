/**
 * `@weft/adk/agent-graph` — for authors of new kinds of agent (as `@weft/prebuilt`'s deep agent,
 * supervisor and plan-execute, and `@weft/mcp`'s tool bridge are): the pieces adk's own agents are
 * assembled from. The agent state schema and its reducers, the run context a node reads
 * (`agentContextOf`) and the events it reports, the ReAct graph and its tool node, the multi-agent graph
 * and hand-off views, tool execution outside an agent, tool-call detection on a stream, instruction
 * rendering and model resolution. Users who build and run agents import `@weft/adk` instead
 * (docs/adr/024-entry-points-by-audience.md).
 *
 * @example
 * ```ts
 * import { tool, userMessage } from '@weft/adk';
 * import { executeToolCalls, MemorySessionState } from '@weft/adk/agent-graph';
 * import { z } from 'zod';
 *
 * const add = tool({
 *   name: 'add',
 *   description: 'Adds two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 * });
 * const [answer] = await executeToolCalls([{ id: 'c1', name: 'add', arguments: '{"a":1,"b":2}' }], [add], {
 *   state: new MemorySessionState(),
 * });
 * console.log(answer?.content, userMessage('thanks').role); // '3' 'user'
 * ```
 *
 * @packageDocumentation
 */

export type { AgentRunConfig } from './agent/agent-config.js';
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
export { historyFor } from './agent/history-view.js';
export { renderInstruction, resolveInstruction } from './agent/instruction.js';
export { InvocationState } from './agent/invocation-state.js';
export { buildReactGraph } from './agent/react-graph.js';
export {
  callModelInNode,
  type ModelCallContext,
  type NodeModelCall,
  reportedModel,
} from './agent/reported-model.js';
export type { ResolvedAgent } from './agent/resolved-agent.js';
export {
  createToolNode,
  type ToolNodeOptions,
  type ToolNodeState,
  type ToolNodeUpdate,
} from './agent/tool-node.js';
export { LOAD_ARTIFACTS_TOOL } from './artifact/load-artifacts-tool.js';
export { RecordedArtifacts, type ToolArtifacts } from './artifact/tool-artifacts.js';
export type { AgentEventInit } from './event/agent-event.js';
export { LOAD_MEMORY_TOOL } from './memory/load-memory-tool.js';
export { DEFAULT_EXTRACTION_INSTRUCTION } from './memory/memory-extractor.js';
export { sessionKeyOf } from './memory/session-key-of.js';
export {
  type DetectedToolCalls,
  detectToolCalls,
  streamUntilToolCall,
  type ToolCallDetection,
} from './model/detect-tool-calls.js';
export { resolveModel } from './model/model-registry.js';
export type { CheckHandBacks, HandBackTargets, TeamAgentNames } from './multi/agent-names.js';
export { HandBackAgent } from './multi/deterministic-transfer.js';
export { conversationFor } from './multi/hand-off-view.js';
export { isTeamMember } from './multi/team-member.js';
export {
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
export { type RunPassThrough, threadOf } from './runner/invocation.js';
export {
  type RunningTurn,
  TURN_LOOP_KEY,
  type TurnItem,
  type TurnLoopState,
  TurnQueueStore,
} from './runner/turn-queue.js';
export type { RunIdentity } from './session/run-identity.js';
export {
  type ExecuteToolCallsOptions,
  executeToolCalls,
  type ToolEmitEvent,
} from './tool/execute-tool-calls.js';
export type { ParsedToolArguments } from './tool/parse-tool-arguments.js';
export { MemorySessionState } from './tool/session-state.js';
export { zodToJsonSchema } from './tool/tool.js';
export { isToolResult } from './tool/tool-result.js';
