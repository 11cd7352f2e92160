import {
  type Agent,
  type AgentMiddleware,
  type AnyTool,
  type ChatModel,
  ChatModelAgent,
  type Instruction,
} from '@weft/adk';
import { compaction, promptSections } from '@weft/adk/context';
import type { TemplateCompaction } from '../react/create-react-agent.js';
import type { Backend } from './backend/backend.js';
import { MemoryBackend } from './backend/memory-backend.js';
import { deepPromptSections } from './deep-prompt.js';
import type { DeepPromptLanguage } from './deep-prompt-text.js';
import { executeTool } from './execute-tool.js';
import { offloadLargeResults } from './offload-large-results.js';
import { readFileTool, searchTools } from './read-tools.js';
import type { Shell } from './shell.js';
import { taskTool } from './task-tool.js';
import { writeTodosTool } from './todos.js';
import { writeTools } from './write-tools.js';

/** Tools of a deep agent that can be made to wait for a person's approval. */
export type ApprovableTool = 'write_file' | 'edit_file' | 'execute';

/** Options of {@link createDeepAgent}. */
export interface DeepAgentOptions {
  readonly model: ChatModel;
  readonly instruction?: Instruction;
  /** Your tools, added to the built-in ones (and given to the general-purpose sub-agent). */
  readonly tools?: readonly AnyTool[];
  /** Named sub-agents for the `task` tool. */
  readonly subAgents?: readonly Agent[];
  /** Where the file tools work (default: a new `MemoryBackend`). */
  readonly backend?: Backend;
  /** Adds the `execute` tool. There is no shell unless you pass one. */
  readonly shell?: Shell;
  /** Default `deep_agent`. */
  readonly name?: string;
  readonly description?: string;
  /** Offer the `general-purpose` sub-agent (default true). */
  readonly generalPurpose?: boolean;
  /** These tools pause for approval before they run (resume with decisions through the Runner). */
  readonly approve?: readonly ApprovableTool[];
  /** Offload tool results longer than this to `/large_results/` (default 20 000), or `false`. */
  readonly largeResultChars?: number | false;
  /** Model calls per invocation (default 50). */
  readonly maxIterations?: number;
  /** Token budget of the system prompt (instruction + built-in sections; default 4 000). */
  readonly promptBudgetTokens?: number;
  readonly compaction?: TemplateCompaction;
  /** Added after the template's middleware. */
  readonly middleware?: readonly AgentMiddleware[];
  /**
   * The general-purpose sub-agent's middleware: `inherit` (default) — the parent's prompt sections
   * (without the todo list and sub-agent parts it has no tools for), large-result offloading,
   * compaction and your `middleware`; `none` — offloading only; or a list of your own.
   */
  readonly subAgentMiddleware?: 'inherit' | 'none' | readonly AgentMiddleware[];
  /** The language of the built-in prompt: `en`, `zh`, or `auto` (default: from the user's latest message). */
  readonly language?: DeepPromptLanguage;
}

/**
 * A deep agent: a ReAct `ChatModelAgent` equipped for long, multi-step work — a todo list
 * (`write_todos`, kept in session state under `TODOS_KEY` and shown in its prompt), file tools (`ls`,
 * `read_file`, `write_file`, `edit_file`, `glob`, `grep`) over a pluggable {@link Backend}, `execute`
 * only when a {@link Shell} is given, large tool results offloaded to the backend, and a `task` tool
 * that runs named or general-purpose sub-agents in isolation. Built only from `@weft/adk`'s public API.
 *
 * @throws AdkError `INVALID_ARGUMENT` for duplicate tool or sub-agent names.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel, e.g. new OpenAIChatModel({ model: 'gpt-4o-mini' })
 * const backend = new MemoryBackend({ '/spec.md': '# Spec' });
 * const agent = createDeepAgent({ model, instruction: 'You write reports.', backend });
 * const runner = new Runner({ agent, sessionService: new MemorySessionService() });
 * ```
 */
export function createDeepAgent(options: DeepAgentOptions): ChatModelAgent {
  const backend = options.backend ?? new MemoryBackend();
  const approve = new Set(options.approve ?? []);
  const files: AnyTool[] = [
    ...searchTools(backend),
    readFileTool(backend),
    ...writeTools(backend, {
      approveWrites: approve.has('write_file'),
      approveEdits: approve.has('edit_file'),
    }),
    ...(options.shell ? [executeTool(options.shell, { needsApproval: approve.has('execute') })] : []),
  ];
  const largeResults = options.largeResultChars === false ? undefined : (options.largeResultChars ?? 20_000);
  const offload =
    largeResults === undefined ? [] : [offloadLargeResults({ backend, maxChars: largeResults })];
  const workerTools = [...files, ...(options.tools ?? [])];
  const generalPurpose = options.generalPurpose ?? true;
  const hasTask = generalPurpose || (options.subAgents?.length ?? 0) > 0;
  const budgetTokens = options.promptBudgetTokens ?? 4_000;
  const language = options.language ?? 'auto';
  const shared = [
    ...offload,
    ...(options.compaction
      ? [compaction({ ...options.compaction, model: options.compaction.model ?? options.model })]
      : []),
    ...(options.middleware ?? []),
  ];
  const inherited = options.subAgentMiddleware ?? 'inherit';
  const workerMiddleware =
    inherited === 'none'
      ? offload
      : inherited === 'inherit'
        ? [
            promptSections({
              sections: deepPromptSections({
                shell: options.shell !== undefined,
                task: false,
                todos: false,
                largeResultsDirectory: largeResults === undefined ? undefined : '/large_results',
                language,
              }),
              budgetTokens,
            }),
            ...shared,
          ]
        : inherited;
  const task = hasTask
    ? [
        taskTool({
          subAgents: options.subAgents ?? [],
          generalPurpose: generalPurpose
            ? {
                model: options.model,
                tools: workerTools,
                middleware: workerMiddleware,
                ...(options.instruction === undefined ? {} : { instruction: options.instruction }),
              }
            : false,
        }),
      ]
    : [];
  const sections = deepPromptSections({
    shell: options.shell !== undefined,
    task: hasTask,
    largeResultsDirectory: largeResults === undefined ? undefined : '/large_results',
    language,
  });
  return new ChatModelAgent({
    name: options.name ?? 'deep_agent',
    model: options.model,
    tools: [writeTodosTool(), ...workerTools, ...task],
    middleware: [promptSections({ sections, budgetTokens }), ...shared],
    maxIterations: options.maxIterations ?? 50,
    onToolError: 'return',
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(options.instruction === undefined ? {} : { instruction: options.instruction }),
  });
}
