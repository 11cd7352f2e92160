import type { Agent, AgentGraph } from '@weft/adk';
import type { Checkpointer } from '@weft/compose';

/**
 * An agent that joins a team as a single node that never transfers: it compiles to the wrapped agent's
 * own graph (a worker with sub-agents runs as its own nested team), offers no `transfer_to_agent` tool
 * and lists no sub-agents to the team. Only the supervisor of a `createSupervisor` team coordinates.
 *
 * @example
 * ```ts
 * const worker = withDeterministicTransfer(new OpaqueAgent(researcher), 'supervisor');
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
