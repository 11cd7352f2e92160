import type { Checkpointer } from '@weft/compose';
import type { Agent } from '../agent/agent.js';
import type { AgentGraph } from '../agent/agent-graph.js';
import { AdkError } from '../errors/adk-error.js';
import type { ChatModel } from '../model/chat-model.js';
import type { CheckHandBacks, TeamAgentNames } from './agent-names.js';
import { compileTeamGraph, type TeamSettings } from './team-graph.js';
import type { HandOffContext } from './transfer.js';
import { AgentGraphCache } from './workflow-graph.js';

/**
 * Options of a {@link Team}.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const billing = new ChatModelAgent({ name: 'billing', model: new ScriptedChatModel(['Refunded.']) });
 * const tech = new ChatModelAgent({ name: 'tech', model: new ScriptedChatModel(['Restart it.']) });
 * const triage = new ChatModelAgent({ name: 'triage', model: new ScriptedChatModel(['Hi!']), subAgents: [billing, tech] });
 * const options: TeamOptions<typeof triage> = { routeNextTurnTo: 'root', handOffContext: { billing: 'summary' } };
 * ```
 */
export interface TeamOptions<TRoot = Agent> {
  /**
   * Where a new turn starts (default `active`): as Google ADK's runner picks it — the agent that last
   * answered if it (and every agent above it) is a chat-model agent that may transfer to its parent,
   * passing over agents that may not and workflow agents' sub-agents (a finished workflow does not run
   * again); otherwise the root. `root`: always the root.
   */
  readonly routeNextTurnTo?: 'active' | 'root';
  /**
   * What the agent taking over sees of the conversation before the hand-off: one policy for every
   * hand-off, or one per target agent (default `full`).
   */
  readonly handOffContext?:
    | HandOffContext
    | { readonly [TName in TeamAgentNames<TRoot> & string]?: HandOffContext };
  /** Writes `summary` hand-offs (default: the transferring agent's model). */
  readonly summaryModel?: ChatModel;
  /** Hand-offs allowed per turn (default 20); a `StepLimitError` ends a ping-pong beyond. */
  readonly maxHandOffs?: number;
}

/**
 * A team of agents compiled into one graph: a node per agent of the tree (the root, its sub-agents,
 * theirs, …; a workflow agent joins as one node) and after each node a router that follows its
 * transfer or ends the turn. Chat-model agents get a `transfer_to_agent` tool whose targets — their
 * sub-agents, their parent and peers unless `disallowTransferToParent`/`disallowTransferToPeers` — are
 * listed with their descriptions in their instruction. A new turn starts at the agent that last answered
 * when it can hand the conversation back (see `routeNextTurnTo`), otherwise at the root; when a workflow
 * agent it transferred to ends with `exit_loop`, the transferring agent continues in the same turn. A `ChatModelAgent` with sub-agents compiles to `new Team(agent)` by
 * itself; build a `Team` to change the options.
 *
 * @throws AdkError `INVALID_ARGUMENT` for duplicate names or a hand-back target outside the team.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const billing = new ChatModelAgent({ name: 'billing', model: new ScriptedChatModel(['Refunded.']) });
 * const tech = new ChatModelAgent({ name: 'tech', model: new ScriptedChatModel(['Restart it.']) });
 * const triage = new ChatModelAgent({ name: 'triage', model: new ScriptedChatModel(['Hi!']), subAgents: [billing, tech] });
 * const team = createTeam(triage, { routeNextTurnTo: 'root', handOffContext: { billing: 'lastMessage' } });
 * const runner = new Runner({ agent: team, sessionService: new MemorySessionService() });
 * ```
 */
export class Team<TRoot extends Agent = Agent> implements Agent<TRoot['name']> {
  readonly name: TRoot['name'];
  readonly description: string;
  readonly subAgents: readonly Agent[];
  readonly #settings: TeamSettings;
  readonly #graphs = new AgentGraphCache();

  constructor(
    /** The agent every conversation starts with. */
    readonly root: TRoot,
    options: TeamOptions<TRoot> = {},
  ) {
    const maxHandOffs = options.maxHandOffs ?? 20;
    if (!(Number.isInteger(maxHandOffs) && maxHandOffs >= 0))
      throw new AdkError('INVALID_ARGUMENT', `team "${root.name}": maxHandOffs must be an integer ≥ 0`);
    const policy = options.handOffContext;
    this.name = root.name;
    this.description = root.description;
    this.subAgents = root.subAgents;
    this.#settings = {
      routeNextTurnTo: options.routeNextTurnTo ?? 'active',
      contextFor: (to) =>
        typeof policy === 'string' ? policy : ((policy as Record<string, HandOffContext>)?.[to] ?? 'full'),
      summaryModel: options.summaryModel,
      maxHandOffs,
    };
    this.compile();
  }

  /** Compiles the team's graph (cached per checkpointer). */
  compile(options: { readonly checkpointer?: Checkpointer } = {}): AgentGraph {
    return this.#graphs.get(options.checkpointer, (checkpointer) =>
      compileTeamGraph(this.root, this.#settings, checkpointer),
    );
  }
}

/**
 * Builds a {@link Team} rooted at `root`. Hand-off policies are keyed by the team's agent names, and a
 * `withDeterministicTransfer` target outside the team is a type error.
 *
 * @throws AdkError `INVALID_ARGUMENT` for duplicate names or a hand-back target outside the team.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const researcher = new ChatModelAgent({ name: 'researcher', model: new ScriptedChatModel(['Facts: …']) });
 * const supervisor = new ChatModelAgent({
 *   name: 'supervisor',
 *   model: new ScriptedChatModel(['Done.']),
 *   subAgents: [withDeterministicTransfer(researcher, 'supervisor')],
 * });
 * const team = createTeam(supervisor, { handOffContext: 'lastMessage' });
 * ```
 */
export function createTeam<TRoot extends Agent>(
  root: TRoot & CheckHandBacks<TRoot>,
  options: TeamOptions<TRoot> = {},
): Team<TRoot> {
  return new Team<TRoot>(root, options);
}
