export type { Backend, FileEntry } from './deep/backend/backend.js';
export { BackendError, type BackendErrorReason } from './deep/backend/backend-error.js';
export { LocalBackend, type LocalBackendOptions } from './deep/backend/local-backend.js';
export { MemoryBackend } from './deep/backend/memory-backend.js';
export { joinPath, normalizePath } from './deep/backend/virtual-path.js';
export { type ApprovableTool, createDeepAgent, type DeepAgentOptions } from './deep/create-deep-agent.js';
export { type DeepPromptParts, deepPromptSections } from './deep/deep-prompt.js';
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
  createReactAgent,
  type ReactAgentOptions,
  type TemplateCompaction,
} from './react/create-react-agent.js';
