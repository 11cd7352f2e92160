import {
  AdkError,
  type Agent,
  type ChatModelAgent,
  type HandOffContext,
  Team,
  withDeterministicTransfer,
} from '@weft/adk';
import { type AgentRoleOptions, roleAgent } from '../multi/role-options.js';
import { OpaqueAgent } from './opaque-agent.js';
import { type SupervisorOutputMode, supervisorView } from './supervisor-view.js';

/**
 * The supervisor's default prompt. The team adds the list of its agents (names and descriptions) and
 * the `transfer_to_agent` tool.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel, e.g. new OpenAIChatModel({ model: 'gpt-4o-mini' })
 * const researcher = createReactAgent({ name: 'researcher', description: 'Finds sources', model, tools: [] });
 * const writer = createReactAgent({ name: 'writer', description: 'Writes the report', model, tools: [] });
 * const agents = [researcher, writer];
 * createSupervisor({ supervisor: { model, instruction: `${SUPERVISOR_PROMPT}\nBe brief.` }, agents });
 * ```
 */
export const SUPERVISOR_PROMPT =
  'You are a supervisor managing a team of agents. Hand each part of the request to the agent best suited for it with transfer_to_agent, one agent at a time, saying in a short note what it should do. When an agent reports back, decide what comes next. Do not do the agents’ work yourself. When the work is done, answer the user with the result.';

/**
 * Options of {@link createSupervisor}.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel, e.g. new OpenAIChatModel({ model: 'gpt-4o-mini' })
 * const researcher = createReactAgent({ name: 'researcher', description: 'Finds sources', model, tools: [] });
 * const writer = createReactAgent({ name: 'writer', description: 'Writes the report', model, tools: [] });
 * const options: SupervisorOptions = { supervisor: { model }, agents: [researcher, writer], outputMode: 'full' };
 * ```
 */
export interface SupervisorOptions {
  /** The coordinating agent (default name `supervisor`, default prompt {@link SUPERVISOR_PROMPT}). */
  readonly supervisor: AgentRoleOptions;
  /** The workers: any agents (a worker with sub-agents runs as its own nested team). */
  readonly agents: readonly Agent[];
  /** What the supervisor sees of a worker's turn (default `lastMessage`). */
  readonly outputMode?: SupervisorOutputMode;
  /** What a worker sees of the conversation before it is handed the work (default `full`). */
  readonly handOffContext?: HandOffContext;
  /** Hand-offs per turn (default 20); a `StepLimitError` ends the turn beyond. */
  readonly maxHandOffs?: number;
}

/**
 * A supervisor team: the supervisor routes work to its agents with `transfer_to_agent`; every agent
 * hands back to it deterministically when it finishes (`withDeterministicTransfer`), and no agent but the
 * supervisor can transfer, so only the supervisor coordinates. The whole team is one graph — one
 * invocation, one root branch (the supervisor's name) for every event — and every turn starts at the
 * supervisor. The workers' tool traffic is hidden from the supervisor unless `outputMode: 'full'`.
 *
 * @throws AdkError `INVALID_ARGUMENT` without agents, or for duplicate names.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel, e.g. new OpenAIChatModel({ model: 'gpt-4o-mini' })
 * const researcher = createReactAgent({ name: 'researcher', description: 'Finds sources', model, tools: [] });
 * const writer = createReactAgent({ name: 'writer', description: 'Writes the report', model, tools: [] });
 * const team = createSupervisor({ supervisor: { model }, agents: [researcher, writer] });
 * const runner = new Runner({ agent: team, sessionService: new MemorySessionService() });
 * ```
 */
export function createSupervisor(options: SupervisorOptions): Team<ChatModelAgent> {
  if (options.agents.length === 0)
    throw new AdkError('INVALID_ARGUMENT', 'createSupervisor: give at least one agent to supervise');
  const name = options.supervisor.name ?? 'supervisor';
  const workers = options.agents.map((agent) => withDeterministicTransfer(new OpaqueAgent(agent), name));
  const supervisor = roleAgent(options.supervisor, {
    name,
    instruction: SUPERVISOR_PROMPT,
    middleware: [supervisorView(options.outputMode ?? 'lastMessage')],
    options: { subAgents: workers },
  });
  return new Team(supervisor, {
    routeNextTurnTo: 'root',
    handOffContext: options.handOffContext ?? 'full',
    ...(options.maxHandOffs === undefined ? {} : { maxHandOffs: options.maxHandOffs }),
  });
}
