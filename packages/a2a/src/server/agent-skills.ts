import type { AgentSkill } from '@a2a-js/sdk';
import type { Agent, AnyTool } from '@weft/adk';

/**
 * A skill to list on an agent card (the card's `AgentSkill` without the fields most skills leave empty).
 *
 * @example
 * ```ts
 * const skill: A2aSkill = { id: 'refunds', name: 'Refunds', description: 'Refunds an order', tags: ['billing'] };
 * ```
 */
export interface A2aSkill {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly tags?: readonly string[];
  readonly examples?: readonly string[];
  readonly inputModes?: readonly string[];
  readonly outputModes?: readonly string[];
}

/** The card's form of a skill. */
export function cardSkill(skill: A2aSkill): AgentSkill {
  return {
    id: skill.id,
    name: skill.name,
    description: skill.description,
    tags: [...(skill.tags ?? [])],
    examples: [...(skill.examples ?? [])],
    inputModes: [...(skill.inputModes ?? [])],
    outputModes: [...(skill.outputModes ?? [])],
    securityRequirements: [],
  };
}

/**
 * The skills an agent's card lists, as Google ADK's `AgentCardBuilder` derives them: the agent itself
 * (`model` for a chat-model agent, `workflow` otherwise) described by its description, one skill per
 * tool (name and description), and its sub-agents' skills prefixed with their names. Unlike ADK, the
 * agent's instruction is not copied into the card: instructions are often private.
 *
 * @example
 * ```ts
 * import { ChatModelAgent } from '@weft/adk';
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const agent = new ChatModelAgent({ name: 'desk', description: 'Answers questions', model: new ScriptedChatModel(['Hi']) });
 * agentSkills(agent).map((skill) => skill.id); // ['desk']
 * ```
 */
export function agentSkills(agent: Agent): A2aSkill[] {
  const inner = unwrapped(agent);
  const tools = toolsOf(inner);
  const own: A2aSkill = {
    id: agent.name,
    name: tools ? 'model' : 'workflow',
    description: agent.description || (tools ? 'A Weft chat-model agent' : 'A Weft agent'),
    tags: [tools ? 'llm' : 'workflow'],
  };
  const toolSkills = (tools ?? []).map(
    (tool): A2aSkill => ({
      id: `${agent.name}-${tool.name}`,
      name: tool.name,
      description: tool.description || `Tool: ${tool.name}`,
      tags: ['llm', 'tools'],
    }),
  );
  const subSkills = inner.subAgents.flatMap((sub) =>
    agentSkills(sub).map(
      (skill): A2aSkill => ({
        ...skill,
        id: `${sub.name}_${skill.id}`,
        name: `${sub.name}: ${skill.name}`,
        tags: [`sub_agent:${sub.name}`, ...(skill.tags ?? [])],
      }),
    ),
  );
  return [own, ...toolSkills, ...subSkills];
}

/** The agent a wrapper stands for: a team's root, a hand-back or opaque worker's agent. */
function unwrapped(agent: Agent): Agent {
  const wrapper = agent as Agent & { readonly root?: unknown; readonly agent?: unknown };
  const inner = isAgent(wrapper.root) ? wrapper.root : isAgent(wrapper.agent) ? wrapper.agent : undefined;
  return inner && inner.name === agent.name ? unwrapped(inner) : agent;
}

function isAgent(value: unknown): value is Agent {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Agent).name === 'string' &&
    typeof (value as Agent).compile === 'function'
  );
}

/** A chat-model agent's tools (its resolved options), or undefined for other agents. */
function toolsOf(agent: Agent): readonly AnyTool[] | undefined {
  const options = (agent as { readonly options?: { readonly tools?: unknown } }).options;
  return Array.isArray(options?.tools) ? (options.tools as readonly AnyTool[]) : undefined;
}
