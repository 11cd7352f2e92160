import {
  AdkError,
  type Agent,
  type AgentMiddleware,
  type AnyTool,
  type ChatModel,
  ChatModelAgent,
  type Instruction,
  resolveInstruction,
  type SessionState,
  tool,
} from '@weft/adk';
import { z } from 'zod';

/** The name of the built-in sub-agent of the `task` tool. */
export const GENERAL_PURPOSE = 'general-purpose';

/** The built-in general-purpose sub-agent: the parent's model, instruction and tools. */
export interface GeneralPurposeAgent {
  readonly model: ChatModel;
  readonly instruction?: Instruction;
  readonly tools: readonly AnyTool[];
  readonly middleware?: readonly AgentMiddleware[];
  readonly maxIterations?: number;
}

/** Options of {@link taskTool}. */
export interface TaskToolOptions {
  /** Named sub-agents the model may hand a task to. */
  readonly subAgents?: readonly Agent[];
  /** The `general-purpose` sub-agent, or `false` for none. */
  readonly generalPurpose?: GeneralPurposeAgent | false;
}

/**
 * `task(subagent_type, description)`: runs a sub-agent on a self-contained task, isolated — a fresh
 * conversation holding only `description`, no access to the parent's history or session writes — and
 * returns its final output. The `general-purpose` sub-agent has the parent's model, instruction
 * (rendered from the parent's session state) and tools. The sub-agent's graph is invoked directly
 * inside the tool with the call's abort signal, so its events are not part of the parent's stream and
 * a pause inside it (a tool approval) fails the call.
 *
 * @throws AdkError `INVALID_ARGUMENT` when there is no sub-agent at all or two share a name.
 * @example
 * ```ts
 * const task = taskTool({ subAgents: [researcher], generalPurpose: { model, tools: [search] } });
 * ```
 */
export function taskTool(options: TaskToolOptions): AnyTool {
  const named = new Map<string, Agent>();
  for (const agent of options.subAgents ?? []) {
    if (named.has(agent.name) || agent.name === GENERAL_PURPOSE)
      throw new AdkError('INVALID_ARGUMENT', `task tool: two sub-agents are named "${agent.name}"`);
    named.set(agent.name, agent);
  }
  const general = options.generalPurpose === false ? undefined : options.generalPurpose;
  const names = [...(general ? [GENERAL_PURPOSE] : []), ...named.keys()];
  const [first, ...rest] = names;
  if (first === undefined)
    throw new AdkError(
      'INVALID_ARGUMENT',
      'task tool: give at least one sub-agent or the general-purpose one',
    );
  const catalog = [
    ...(general
      ? [`- ${GENERAL_PURPOSE}: a general agent with your tools, for research or multi-step work`]
      : []),
    ...[...named.values()].map((agent) => `- ${agent.name}: ${agent.description || '(no description)'}`),
  ].join('\n');
  return tool({
    name: 'task',
    description: `Hand a self-contained task to a sub-agent with a fresh context. Put everything it needs in description; you get its final answer back. Run several at once for independent tasks.\nSub-agents:\n${catalog}`,
    parameters: z.object({
      subagent_type: z.enum([first, ...rest]).describe('Which sub-agent runs the task'),
      description: z.string().min(1).describe('The task, with all the context the sub-agent needs'),
    }),
    execute: async ({ subagent_type, description }, ctx) => {
      const agent =
        named.get(subagent_type) ?? (await generalPurpose(general as GeneralPurposeAgent, ctx.state));
      const state = await agent.compile().invoke({ input: description }, { signal: ctx.signal });
      if ('__interrupt__' in state)
        throw new Error(
          `sub-agent "${subagent_type}" paused for input (e.g. a tool approval), which the task tool cannot resume; give it tools that need no approval`,
        );
      return state.output ?? '';
    },
  });
}

async function generalPurpose(settings: GeneralPurposeAgent, session: SessionState): Promise<ChatModelAgent> {
  // The parent's instruction is rendered against its session, read key by key (a SessionState cannot be listed).
  const state = new Proxy<Record<string, unknown>>(
    {},
    { get: (_target, key) => (typeof key === 'string' ? session.get(key) : undefined) },
  );
  const instruction = await resolveInstruction(settings.instruction, { state, agentName: GENERAL_PURPOSE });
  return new ChatModelAgent({
    name: GENERAL_PURPOSE,
    model: settings.model,
    tools: [...settings.tools],
    middleware: [...(settings.middleware ?? [])],
    ...(instruction ? { instruction: () => instruction } : {}),
    ...(settings.maxIterations ? { maxIterations: settings.maxIterations } : {}),
  });
}
