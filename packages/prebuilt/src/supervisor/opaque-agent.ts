import type { Agent, AgentGraph } from '@weft/adk';
import type { Checkpointer } from '@weft/compose';

/**
 * An agent that joins a team as a single node that never transfers: it compiles to the wrapped agent's
 * own graph (a worker with sub-agents runs as its own nested team), offers no `transfer_to_agent` tool
 * and lists no sub-agents to the team. Only the supervisor of a `createSupervisor` team coordinates.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const researcher = createReactAgent({ name: 'researcher', description: 'Researches a topic', model, tools: [] });
 * const worker = withDeterministicTransfer(new OpaqueAgent(researcher), 'supervisor'); // its inner steps stay hidden
 * ```
 */
export class OpaqueAgent implements Agent {
  readonly name: string;
  readonly description: string;
  readonly subAgents: readonly Agent[] = [];

  constructor(
    /** The wrapped agent. */
    readonly agent: Agent,
  ) {
    this.name = agent.name;
    this.description = agent.description;
  }

  /** The wrapped agent's graph. */
  compile(options: { readonly checkpointer?: Checkpointer } = {}): AgentGraph {
    return this.agent.compile(options);
  }
}
