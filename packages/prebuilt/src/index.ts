export { ArtifactBackend, type ArtifactBackendOptions } from './deep/backend/artifact-backend.js';
export type { Backend, BackendCallOptions, FileEntry } from './deep/backend/backend.js';
export { BackendError, type BackendErrorReason } from './deep/backend/backend-error.js';
export { LocalBackend, type LocalBackendOptions } from './deep/backend/local-backend.js';
export { MemoryBackend } from './deep/backend/memory-backend.js';
export { joinPath, normalizePath } from './deep/backend/virtual-path.js';
export { type ApprovableTool, createDeepAgent, type DeepAgentOptions } from './deep/create-deep-agent.js';
export { type DeepPromptParts, deepPromptSections } from './deep/deep-prompt.js';
export type { DeepPromptLanguage } from './deep/deep-prompt-text.js';
export { executeTool } from './deep/execute-tool.js';
export { globToRegExp } from './deep/glob-pattern.js';
export { type OffloadOptions, offloadLargeResults } from './deep/offload-large-results.js';
export { findFiles, type ReadToolLimits, readFileTool, searchTools } from './deep/read-tools.js';
export { LocalShell, type LocalShellOptions, type Shell, type ShellResult } from './deep/shell.js';
export {
  GENERAL_PURPOSE,
  type GeneralPurposeAgent,
  type TaskToolOptions,
  taskTool,
} from './deep/task-tool.js';
export { formatTodos, readTodos, TODOS_KEY, type Todo, todoSchema, writeTodosTool } from './deep/todos.js';
export { countOccurrences, type WriteToolsOptions, writeTools } from './deep/write-tools.js';
export {
  createHostAgent,
  HOST_PROMPT,
  type HostAgentTemplateOptions,
  SUMMARIZER_PROMPT,
} from './host/create-host-agent.js';
export { HostAgent, type HostAgentOptions } from './host/host-agent.js';
export {
  concatenateResults,
  type MergeResultsOptions,
  mergeResultsNode,
  specialistResults,
} from './host/merge-results.js';
export { type AgentRoleOptions, type RoleDefaults, roleAgent } from './multi/role-options.js';
export {
  createPlanExecute,
  type PlanExecuteOptions,
  type PlanExecuteRole,
} from './plan-execute/create-plan-execute.js';
export { PlanExecuteAgent, type PlanExecuteAgentOptions } from './plan-execute/plan-execute-agent.js';
export {
  EXECUTOR_PROMPT,
  PLAN_EXECUTE_PROMPTS,
  PLANNER_PROMPT,
  type PlanExecutePrompts,
  planPrompt,
  REPLANNER_PROMPT,
} from './plan-execute/plan-prompts.js';
export {
  EXECUTED_STEPS_KEY,
  type ExecutedStep,
  executedStepSchema,
  formatExecutedSteps,
  formatSteps,
  latestUserText,
  PLAN_INPUT_KEY,
  PLAN_KEY,
  type Plan,
  planSchema,
  readExecutedSteps,
  readPlan,
} from './plan-execute/plan-state.js';
export {
  PLAN_TOOL,
  planTool,
  RESPOND_TOOL,
  recordExecutedStep,
  respondTool,
} from './plan-execute/plan-tools.js';
export {
  createReactAgent,
  type ReactAgentOptions,
  type TemplateCompaction,
} from './react/create-react-agent.js';
export {
  createSupervisor,
  SUPERVISOR_PROMPT,
  type SupervisorOptions,
} from './supervisor/create-supervisor.js';
export { OpaqueAgent } from './supervisor/opaque-agent.js';
export { type SupervisorOutputMode, supervisorView, workerOutput } from './supervisor/supervisor-view.js';
