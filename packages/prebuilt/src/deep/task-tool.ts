import {
  AdkError,
  type Agent,
  type AgentMiddleware,
  AgentTool,
  type AnyTool,
  type ChatModel,
  ChatModelAgent,
  type Instruction,
  tool,
} from '@weft/adk';
import { z } from 'zod';

/**
 * The name of the built-in sub-agent of the `task` tool.
 *
 * @example
 * ```ts
 * // The model hands a task to the built-in sub-agent by calling the task tool with:
 * const call = { name: 'task', arguments: { subagent_type: GENERAL_PURPOSE, description: 'Summarize /notes.md' } };
 * ```
 */
export const GENERAL_PURPOSE = 'general-purpose';

/**
 * The built-in general-purpose sub-agent: the parent's model, instruction and tools.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const search = tool({
 *   name: 'search',
 *   description: 'Searches the web',
 *   parameters: z.object({ query: z.string() }),
 *   execute: ({ query }) => `results for ${query}`,
 * });
 * const general: GeneralPurposeAgent = { model, instruction: 'You help.', tools: [search] };
 * const task = taskTool({ generalPurpose: general });
 * ```
 */
export interface GeneralPurposeAgent {
  readonly model: ChatModel;
  readonly instruction?: Instruction;
  readonly tools: readonly AnyTool[];
  readonly middleware?: readonly AgentMiddleware[];
  readonly maxIterations?: number;
}

/**
 * Options of {@link taskTool}.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const researcher = createReactAgent({ name: 'researcher', description: 'Researches a topic', model, tools: [] });
 * const options: TaskToolOptions = { subAgents: [researcher], generalPurpose: false }; // only the researcher
 * const task = taskTool(options);
 * ```
 */
export interface TaskToolOptions {
  /** Named sub-agents the model may hand a task to. */
  readonly subAgents?: readonly Agent[];
  /** The `general-purpose` sub-agent, or `false` for none. */
  readonly generalPurpose?: GeneralPurposeAgent | false;
}

/**
 * `task(subagent_type, description)`: runs a sub-agent on a self-contained task in a fresh conversation
 * holding only `description`, and returns its final output. Each sub-agent runs as an `AgentTool` of
 * `@weft/adk`, nested under the caller's `tools` node (its own checkpoint namespace, keyed by the tool
 * call id): its events reach the parent's stream tagged with their branch (`deep_agent.researcher`), a
 * pause inside it (a tool approval) pauses the parent and resumes inside the sub-agent, and its session
 * writes return to the parent's session. The `general-purpose` sub-agent has the parent's model,
 * instruction (rendered from the same session) and tools.
 *
 * @throws AdkError `INVALID_ARGUMENT` when there is no sub-agent at all or two share a name.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const search = tool({
 *   name: 'search',
 *   description: 'Searches the web',
 *   parameters: z.object({ query: z.string() }),
 *   execute: ({ query }) => `results for ${query}`,
 * });
 * const researcher = createReactAgent({ name: 'researcher', description: 'Researches a topic', model, tools: [] });
 * const task = taskTool({ subAgents: [researcher], generalPurpose: { model, tools: [search] } });
 * const agent = new ChatModelAgent({ name: 'lead', model, tools: [task] }); // may call task('researcher', …)
 * ```
 */
export function taskTool(options: TaskToolOptions): AnyTool {
  const agents = new Map<string, AgentTool>();
  const general = options.generalPurpose === false ? undefined : options.generalPurpose;
  if (general) agents.set(GENERAL_PURPOSE, new AgentTool(generalPurposeAgent(general)));
  for (const agent of options.subAgents ?? []) {
    if (agents.has(agent.name))
      throw new AdkError('INVALID_ARGUMENT', `task tool: two sub-agents are named "${agent.name}"`);
    agents.set(agent.name, new AgentTool(agent));
  }
  const [first, ...rest] = agents.keys();
  if (first === undefined)
    throw new AdkError(
      'INVALID_ARGUMENT',
      'task tool: give at least one sub-agent or the general-purpose one',
    );
  const catalog = [...agents.entries()].map(([name, { agent }]) =>
    name === GENERAL_PURPOSE
      ? `- ${GENERAL_PURPOSE}: a general agent with your tools, for research or multi-step work`
      : `- ${name}: ${agent.description || '(no description)'}`,
  );
  return tool({
    name: 'task',
    description: `Hand a self-contained task to a sub-agent with a fresh context. Put everything it needs in description; you get its final answer back. Run several at once for independent tasks.\nSub-agents:\n${catalog.join('\n')}`,
    parameters: z.object({
      subagent_type: z.enum([first, ...rest]).describe('Which sub-agent runs the task'),
      description: z.string().min(1).describe('The task, with all the context the sub-agent needs'),
    }),
    execute: async ({ subagent_type, description }, ctx) => {
      // The enum admits only the names of `agents`.
      const agentTool = agents.get(subagent_type) as AgentTool;
      const output = await agentTool.execute({ request: description }, ctx);
      return output ?? '';
    },
  });
}

function generalPurposeAgent(settings: GeneralPurposeAgent): ChatModelAgent {
  return new ChatModelAgent({
    name: GENERAL_PURPOSE,
    description: 'A general agent with the parent agent’s tools',
    model: settings.model,
    tools: [...settings.tools],
    middleware: [...(settings.middleware ?? [])],
    onToolError: 'return',
    ...(settings.instruction === undefined ? {} : { instruction: settings.instruction }),
    ...(settings.maxIterations ? { maxIterations: settings.maxIterations } : {}),
  });
}
