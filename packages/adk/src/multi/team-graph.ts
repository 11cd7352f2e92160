import { type Checkpointer, END, START } from '@weft/compose';
import type { Agent } from '../agent/agent.js';
import type { AgentState } from '../agent/agent-state.js';
import type { AgentGraph } from '../agent/chat-model-agent.js';
import { AdkError } from '../errors/adk-error.js';
import type { ChatModel } from '../model/chat-model.js';
import { HandBackAgent } from './deterministic-transfer.js';
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
 * Compiles the graph of a team: `enter` (starts the turn, then routes to the agent that last held the
 * conversation, or the root) and one node per agent of the tree, each followed by a router that goes
 * to the agent it transferred to, or END.
 *
 * @throws AdkError `INVALID_ARGUMENT` for duplicate names, an agent named `enter`, or a hand-back
 *   target outside the team.
 * @example
 * ```ts
 * const graph = compileTeamGraph(triage, settings);
 * ```
 */
export function compileTeamGraph(
  root: Agent,
  settings: TeamSettings,
  checkpointer?: Checkpointer,
): AgentGraph {
  const members = membersOf(root);
  const owners = ownersOf(members);
  const graph = multiAgentGraph().addNode('enter', (state) => startTurn(state));
  const names = [...members.keys()];
  for (const member of members.values()) {
    const place = placeOf(member, settings);
    const { agent } = member;
    graph.addNode(agent.name, isTeamMember(agent) ? agent.compileInTeam(place) : agent.compile());
    const targets = new Set(place.targets.map((t) => t.name));
    if (agent instanceof HandBackAgent) targets.add(agent.handsBackTo);
    graph.addConditionalEdges(agent.name, (s) => next(s, members), [...targets, END]);
  }
  const start = (s: AgentState): string =>
    settings.routeNextTurnTo === 'active' && s.activeAgent !== undefined
      ? (owners.get(s.activeAgent) ?? root.name)
      : root.name;
  graph.addEdge(START, 'enter').addConditionalEdges('enter', start, names);
  return compileAgentGraph(graph, {
    name: root.name,
    maxSteps: settings.maxHandOffs + 2,
    ...(checkpointer ? { checkpointer } : {}),
  });
}

function next(state: AgentState, members: ReadonlyMap<string, Member>): string {
  const to = state.finish === 'transfer' ? state.transferTo : undefined;
  return to !== undefined && members.has(to) ? to : END;
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

/** Maps every agent name inside the team (workflow sub-agents included) to the team node holding it. */
function ownersOf(members: ReadonlyMap<string, Member>): Map<string, string> {
  const owners = new Map<string, string>();
  const claim = (agent: Agent, owner: string): void => {
    if (!owners.has(agent.name)) owners.set(agent.name, owner);
    for (const sub of agent.subAgents) claim(sub, owner);
  };
  for (const name of members.keys()) owners.set(name, name);
  for (const { agent } of members.values()) if (!isTeamMember(agent)) claim(agent, agent.name);
  return owners;
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
