/**
 * `@weft/prebuilt` — ready agent patterns as Weft graph templates.
 *
 * For people building agents from a template: the `create*` functions, their options (and every type
 * those options name, so you can write them down), the `Backend` and `Shell` a deep agent works through
 * with the implementations to pass it, the default prompts to extend, and the session-state keys the
 * templates write (to read a plan or a todo list back). The tools and middleware the templates are made
 * of stay inside the package (see docs/adr/024-entry-points-by-audience.md).
 *
 * @packageDocumentation
 */

export { ArtifactBackend, type ArtifactBackendOptions } from './deep/backend/artifact-backend.js';
export type { Backend, BackendCallOptions, FileEntry } from './deep/backend/backend.js';
export { BackendError, type BackendErrorReason } from './deep/backend/backend-error.js';
export { LocalBackend, type LocalBackendOptions } from './deep/backend/local-backend.js';
export { MemoryBackend } from './deep/backend/memory-backend.js';
export { type ApprovableTool, createDeepAgent, type DeepAgentOptions } from './deep/create-deep-agent.js';
export type { DeepPromptLanguage } from './deep/deep-prompt-text.js';
export { LocalShell, type LocalShellOptions, type Shell, type ShellResult } from './deep/shell.js';
export { TODOS_KEY, type Todo } from './deep/todos.js';
export {
  createHostAgent,
  HOST_PROMPT,
  type HostAgentTemplateOptions,
  SUMMARIZER_PROMPT,
} from './host/create-host-agent.js';
export type { HostAgent } from './host/host-agent.js';
export type { AgentRoleOptions } from './multi/role-options.js';
export {
  createPlanExecute,
  type PlanExecuteOptions,
  type PlanExecuteRole,
} from './plan-execute/create-plan-execute.js';
export type { PlanExecuteAgent } from './plan-execute/plan-execute-agent.js';
export { PLAN_EXECUTE_PROMPTS, type PlanExecutePrompts } from './plan-execute/plan-prompts.js';
export {
  EXECUTED_STEPS_KEY,
  type ExecutedStep,
  PLAN_INPUT_KEY,
  PLAN_KEY,
} from './plan-execute/plan-state.js';
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
export type { SupervisorOutputMode } from './supervisor/supervisor-view.js';
