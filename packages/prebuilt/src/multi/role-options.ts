import {
  type AgentMiddleware,
  type AnyTool,
  type ChatModel,
  ChatModelAgent,
  type ChatModelAgentOptions,
  type Instruction,
} from '@weft/adk';

/**
 * One chat-model role of a multi-agent template (a supervisor, a planner, a host…): its model and,
 * optionally, its name, instruction (replaces the template's prompt), tools, middleware and any other
 * `ChatModelAgent` option.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel, e.g. new OpenAIChatModel({ model: 'gpt-4o-mini' })
 * const planner: AgentRoleOptions = { model, instruction: 'Plan in at most 3 steps.' };
 * ```
 */
export interface AgentRoleOptions {
  readonly model: ChatModel;
  /** The agent's name (each template has a default). */
  readonly name?: string;
  readonly description?: string;
  /** Replaces the template's prompt for this role. */
  readonly instruction?: Instruction;
  /** Added to the tools the template gives this role. */
  readonly tools?: readonly AnyTool[];
  /** Added after the template's own middleware. */
  readonly middleware?: readonly AgentMiddleware[];
  /** Model calls per invocation of this role (default 20). */
  readonly maxIterations?: number;
  /** Any other `ChatModelAgent` option, applied last. */
  readonly agentOptions?: Partial<
    Omit<ChatModelAgentOptions, 'name' | 'model' | 'tools' | 'middleware' | 'subAgents'>
  >;
}

/**
 * What a template adds to a role: its default name and prompt, its own tools, middleware and options.
 *
 * @example
 * ```ts
 * const defaults: RoleDefaults = {
 *   name: 'planner',
 *   instruction: 'You break the task into numbered steps.',
 *   options: { description: 'Plans the work' },
 * };
 * ```
 */
export interface RoleDefaults {
  readonly name: string;
  readonly instruction: Instruction;
  readonly tools?: readonly AnyTool[];
  readonly middleware?: readonly AgentMiddleware[];
  readonly options?: Partial<Omit<ChatModelAgentOptions, 'name' | 'model' | 'tools' | 'middleware'>>;
}

/**
 * Builds the `ChatModelAgent` of a role: the template's tools first, then the role's; the template's
 * middleware outermost; tool failures go back to the model.
 *
 * @throws AdkError `INVALID_ARGUMENT` for a bad name or duplicate tool names.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const role: AgentRoleOptions = { model, instruction: 'Plan in at most three steps.' };
 * const planner = roleAgent(role, { name: 'planner', instruction: 'You make plans.' });
 * planner.name; // 'planner'; its instruction is the role's, which replaces the default
 * ```
 */
export function roleAgent(role: AgentRoleOptions, defaults: RoleDefaults): ChatModelAgent {
  return new ChatModelAgent({
    name: role.name ?? defaults.name,
    model: role.model,
    instruction: role.instruction ?? defaults.instruction,
    tools: [...(defaults.tools ?? []), ...(role.tools ?? [])],
    middleware: [...(defaults.middleware ?? []), ...(role.middleware ?? [])],
    onToolError: 'return',
    ...(role.description === undefined ? {} : { description: role.description }),
    ...(role.maxIterations === undefined ? {} : { maxIterations: role.maxIterations }),
    ...defaults.options,
    ...role.agentOptions,
  });
}
