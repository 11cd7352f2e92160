import type { Agent } from '../agent/agent.js';
import type { AgentGraph } from '../agent/agent-graph.js';
import type { ResolvedAgent } from '../agent/resolved-agent.js';
import { AdkError } from '../errors/adk-error.js';
import { type TeamPlace, TRANSFER_TOOL, transferTool } from './transfer.js';

/**
 * Which transfers an agent allows besides those to its own sub-agents.
 *
 * @example
 * ```ts
 * const rules: TransferRules = { toParent: true, toPeers: false };
 * ```
 */
export interface TransferRules {
  readonly toParent: boolean;
  readonly toPeers: boolean;
}

/**
 * An agent that can take part in a team's transfers (a `ChatModelAgent`, or one wrapped by
 * `withDeterministicTransfer`): its `subAgents` are team members too, and it compiles a graph for its
 * place in the team. Other agents (workflows) join a team as a whole, as targets only.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const agent: Agent = new ChatModelAgent({ name: 'triage', model: new ScriptedChatModel(['Hi!']) });
 * const place: TeamPlace = {
 *   targets: [{ name: 'billing', description: 'Invoices and refunds', relation: 'sub-agent' }],
 *   contextFor: () => 'full',
 * };
 * const graph = isTeamMember(agent) ? agent.compileInTeam(place) : agent.compile(); // with transfer_to_agent
 * ```
 */
export interface TeamMember extends Agent {
  readonly transferRules: TransferRules;
  /** Its graph with the `transfer_to_agent` tool and instruction section for `place` (none without targets). */
  compileInTeam(place: TeamPlace): AgentGraph;
}

/**
 * True for agents that take part in transfers.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const agent: Agent = new ChatModelAgent({ name: 'triage', model: new ScriptedChatModel(['Hi!']) });
 * const children = isTeamMember(agent) ? agent.subAgents : []; // a ChatModelAgent is a team member
 * ```
 */
export function isTeamMember(agent: Agent): agent is TeamMember {
  const candidate = agent as Partial<TeamMember>;
  return typeof candidate.compileInTeam === 'function' && typeof candidate.transferRules === 'object';
}

/**
 * An agent's resolved options with the `transfer_to_agent` tool of its place in a team added.
 *
 * @throws AdkError `INVALID_ARGUMENT` when the agent already has a tool named `transfer_to_agent`.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const agent = new ChatModelAgent({ name: 'triage', model: new ScriptedChatModel(['Hi!']) });
 * const place: TeamPlace = {
 *   targets: [{ name: 'billing', description: 'Invoices and refunds', relation: 'sub-agent' }],
 *   contextFor: () => 'full',
 * };
 * const member = withTransfer(agent.options, place); // its options plus the transfer tool and instruction
 * ```
 */
export function withTransfer(agent: ResolvedAgent, place: TeamPlace): ResolvedAgent {
  if (agent.toolsByName.has(TRANSFER_TOOL)) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      `agent "${agent.name}" has its own tool named "${TRANSFER_TOOL}", which its team adds; rename the tool`,
    );
  }
  const transfer = transferTool(agent.name, place, agent.model);
  return {
    ...agent,
    tools: [...agent.tools, transfer],
    toolsByName: new Map([...agent.toolsByName, [TRANSFER_TOOL, transfer]]),
    transfer: place,
  };
}
