import { type Checkpointer, Command, END, START } from '@weft/compose';
import type { Agent } from '../agent/agent.js';
import type { AgentGraph } from '../agent/agent-graph.js';
import type { AgentState } from '../agent/agent-state.js';
import { AdkError } from '../errors/adk-error.js';
import type { ChatModel } from '../model/chat-model.js';
import { HandBackAgent } from './deterministic-transfer.js';
import { agentForNextTurn, agentTree, resumerAfterLoopExit } from './next-turn-agent.js';
import { isTeamMember } from './team-member.js';
import type { HandOffContext, TeamPlace, TransferTarget } from './transfer.js';
import { compileAgentGraph, multiAgentGraph, startTurn } from './workflow-graph.js';

/**
 * How a team is wired, with its defaults applied.
 *
 * @example
 * ```ts
 * const settings: TeamSettings = { routeNextTurnTo: 'active', contextFor: () => 'full', summaryModel: undefined, maxHandOffs: 20 };
 * ```
 */
export interface TeamSettings {
  readonly routeNextTurnTo: 'active' | 'root';
  readonly contextFor: (to: string) => HandOffContext;
  readonly summaryModel: ChatModel | undefined;
  readonly maxHandOffs: number;
}

interface Member {
  readonly agent: Agent;
  readonly parent: Agent | undefined;
}

/**
 * Compiles the graph of a team: `enter` (starts the turn, then routes to the agent that answers it — see
 * `agentForNextTurn`; the root when the team runs inside another agent's turn) and one node per agent
 * of the tree, each followed by a router that goes to the agent it transferred to, back to the agent
 * that transferred to a workflow agent that ended with `exit_loop`, or END.
 *
 * @throws AdkError `INVALID_ARGUMENT` for duplicate names, an agent named `enter`, or a hand-back
 *   target outside the team.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const billing = new ChatModelAgent({ name: 'billing', model: new ScriptedChatModel(['Refunded.']) });
 * const tech = new ChatModelAgent({ name: 'tech', model: new ScriptedChatModel(['Restart it.']) });
 * const triage = new ChatModelAgent({ name: 'triage', model: new ScriptedChatModel(['Hi!']), subAgents: [billing, tech] });
 * const settings: TeamSettings = { routeNextTurnTo: 'active', contextFor: () => 'full', summaryModel: undefined, maxHandOffs: 20 };
 * const graph = compileTeamGraph(triage, settings);
 * ```
 */
export function compileTeamGraph(
  root: Agent,
  settings: TeamSettings,
  checkpointer?: Checkpointer,
): AgentGraph {
  const members = membersOf(root);
  const tree = agentTree(root);
  const names = [...members.keys()];
  const start = (s: AgentState): string =>
    settings.routeNextTurnTo === 'active' && s.input !== undefined
      ? agentForNextTurn(s.messages, root, tree)
      : root.name;
  const graph = multiAgentGraph().addNode(
    'enter',
    (state) => new Command({ update: startTurn(state), goto: start(state) }),
    { goto: names },
  );
  const speakers = names.filter((name) => isTeamMember(members.get(name)?.agent as Agent));
  for (const member of members.values()) {
    const place = placeOf(member, settings);
    const { agent } = member;
    graph.addNode(agent.name, isTeamMember(agent) ? agent.compileInTeam(place) : agent.compile());
    const targets = new Set(place.targets.map((t) => t.name));
    if (agent instanceof HandBackAgent) targets.add(agent.handsBackTo);
    if (!isTeamMember(agent)) for (const name of speakers) targets.add(name);
    graph.addConditionalEdges(agent.name, (s) => next(agent.name, s, members), [...targets, END]);
  }
  graph.addEdge(START, 'enter');
  return compileAgentGraph(graph, {
    name: root.name,
    maxSteps: settings.maxHandOffs + 2,
    ...(checkpointer ? { checkpointer } : {}),
  });
}

/**
 * Where the turn goes after `from`: the agent it transferred to; after a workflow agent that ended with
 * `exit_loop`, back to the agent that transferred to it; otherwise the turn ends.
 */
function next(from: string, state: AgentState, members: ReadonlyMap<string, Member>): string {
  const to = state.finish === 'transfer' ? state.transferTo : undefined;
  if (to !== undefined && members.has(to)) return to;
  const agent = members.get(from)?.agent;
  const back = agent && !isTeamMember(agent) ? resumerAfterLoopExit(from, state.messages) : undefined;
  return back !== undefined && members.has(back) ? back : END;
}

/** Every agent of the team by name, with its parent: team members' sub-agents, recursively. */
function membersOf(root: Agent): Map<string, Member> {
  const members = new Map<string, Member>();
  const problems: string[] = [];
  const visit = (agent: Agent, parent: Agent | undefined): void => {
    if (members.has(agent.name)) problems.push(`two agents are named "${agent.name}"`);
    if (agent.name === 'enter')
      problems.push('an agent is named "enter", the name of the team\'s first node');
    members.set(agent.name, { agent, parent });
    if (isTeamMember(agent)) for (const sub of agent.subAgents) visit(sub, agent);
  };
  visit(root, undefined);
  for (const { agent } of members.values()) {
    if (agent instanceof HandBackAgent && !members.has(agent.handsBackTo))
      problems.push(
        `"${agent.name}" hands back to "${agent.handsBackTo}", which is not an agent of the team`,
      );
  }
  if (problems.length > 0)
    throw new AdkError('INVALID_ARGUMENT', `team "${root.name}": ${problems.join('; ')}`);
  return members;
}

/** Whom an agent may transfer to: its sub-agents, its parent and peers unless its rules forbid. */
function placeOf(member: Member, settings: TeamSettings): TeamPlace {
  const { agent, parent } = member;
  const target = (a: Agent, relation: TransferTarget['relation']): TransferTarget => ({
    name: a.name,
    description: a.description,
    relation,
  });
  const targets: TransferTarget[] = [];
  if (isTeamMember(agent)) {
    targets.push(...agent.subAgents.map((sub) => target(sub, 'sub-agent')));
    if (parent && agent.transferRules.toParent) targets.push(target(parent, 'parent'));
    if (parent && agent.transferRules.toPeers)
      for (const peer of parent.subAgents) if (peer !== agent) targets.push(target(peer, 'peer'));
  }
  return {
    targets,
    contextFor: settings.contextFor,
    ...(settings.summaryModel ? { summaryModel: settings.summaryModel } : {}),
  };
}
