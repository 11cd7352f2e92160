import { type Checkpointer, END, type NodeContext, START } from '@weft/compose';
import type { Agent } from '../agent/agent.js';
import { reportAgentEvent } from '../agent/agent-context.js';
import type { AgentGraph } from '../agent/agent-graph.js';
import type { AgentState } from '../agent/agent-state.js';
import { isTeamMember, type TeamMember, type TransferRules } from './team-member.js';
import type { TeamPlace } from './transfer.js';
import { AgentGraphCache, checkSubAgents, compileAgentGraph, multiAgentGraph } from './workflow-graph.js';

/**
 * An agent that always hands the conversation to `handsBackTo` when it finishes, made by
 * {@link withDeterministicTransfer}. In a team it keeps the wrapped agent's name, sub-agents and
 * transfer rules.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const researcher = new ChatModelAgent({ name: 'researcher', model: new ScriptedChatModel(['Facts: …']) });
 * const worker: HandBackAgent<typeof researcher, 'supervisor'> = withDeterministicTransfer(researcher, 'supervisor');
 * ```
 */
export class HandBackAgent<TAgent extends Agent = Agent, TTo extends string = string>
  implements Agent<TAgent['name']>, TeamMember
{
  readonly name: TAgent['name'];
  readonly description: string;
  readonly subAgents: readonly Agent[];
  readonly #graphs = new AgentGraphCache();

  constructor(
    /** The wrapped agent. */
    readonly agent: TAgent,
    /** Where the conversation goes when the agent finishes (unless it transferred or exited itself). */
    readonly handsBackTo: TTo,
  ) {
    checkSubAgents(agent.name, [agent], ['handBack']);
    this.name = agent.name;
    this.description = agent.description;
    this.subAgents = isTeamMember(agent) ? agent.subAgents : [];
  }

  get transferRules(): TransferRules {
    return isTeamMember(this.agent) ? this.agent.transferRules : { toParent: false, toPeers: false };
  }

  /** The wrapped agent's graph followed by the hand-back (cached per checkpointer). */
  compile(options: { readonly checkpointer?: Checkpointer } = {}): AgentGraph {
    return this.#graphs.get(options.checkpointer, (checkpointer) =>
      this.#wrap(this.agent.compile(), checkpointer),
    );
  }

  compileInTeam(place: TeamPlace): AgentGraph {
    return this.#wrap(isTeamMember(this.agent) ? this.agent.compileInTeam(place) : this.agent.compile());
  }

  #wrap(inner: AgentGraph, checkpointer?: Checkpointer): AgentGraph {
    const graph = multiAgentGraph()
      .addNode(this.name, inner)
      .addNode('handBack', handBackNode(this.name, this.handsBackTo))
      .addEdge(START, this.name)
      .addEdge(this.name, 'handBack')
      .addEdge('handBack', END);
    return compileAgentGraph(graph, {
      name: this.name,
      maxSteps: 4,
      ...(checkpointer ? { checkpointer } : {}),
    });
  }
}

function handBackNode(author: string, to: string) {
  return async (state: AgentState, ctx: NodeContext): Promise<Partial<AgentState> | undefined> => {
    if (state.finish === 'transfer' || state.finish === 'exit') return undefined;
    await reportAgentEvent(ctx, { author, actions: { transferTo: to } });
    return { finish: 'transfer', transferTo: to };
  };
}

/**
 * Makes an agent hand the conversation back to `to` whenever it finishes (unless it transferred or
 * exited on its own) — what the workers of a supervisor need. The hand-back is an event with
 * `actions.transferTo`; in a team the supervisor then continues. Targets are checked against the team
 * by `createTeam` (types) and when the team is built.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const researcher = new ChatModelAgent({ name: 'researcher', model: new ScriptedChatModel(['Facts: …']) });
 * const coder = new ChatModelAgent({ name: 'coder', model: new ScriptedChatModel(['Code: …']) });
 * const model = new ScriptedChatModel([
 *   { toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'researcher' } }] },
 *   'Here is what the researcher found.',
 * ]);
 * const supervisor = new ChatModelAgent({
 *   name: 'supervisor',
 *   model,
 *   subAgents: [withDeterministicTransfer(researcher, 'supervisor'), withDeterministicTransfer(coder, 'supervisor')],
 * });
 * ```
 */
export function withDeterministicTransfer<TAgent extends Agent, const TTo extends string>(
  agent: TAgent,
  to: TTo,
): HandBackAgent<TAgent, TTo> {
  return new HandBackAgent(agent, to);
}
