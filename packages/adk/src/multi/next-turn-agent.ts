import type { Agent } from '../agent/agent.js';
import type { Message } from '../message/message.js';
import { EXIT_LOOP_TOOL } from './exit-loop-tool.js';
import { isTeamMember } from './team-member.js';
import { handOffRecordOf } from './transfer.js';

/**
 * Every agent of a tree by name (workflow agents' sub-agents included), with its parent.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const billing = new ChatModelAgent({ name: 'billing', model: new ScriptedChatModel(['Refunded.']) });
 * const tech = new ChatModelAgent({ name: 'tech', model: new ScriptedChatModel(['Restart it.']) });
 * const triage = new ChatModelAgent({ name: 'triage', model: new ScriptedChatModel(['Hi!']), subAgents: [billing, tech] });
 * const parents = agentTree(triage); // Map { 'triage' → undefined, 'billing' → triage, … }
 * ```
 */
export function agentTree(root: Agent): Map<string, { agent: Agent; parent: Agent | undefined }> {
  const tree = new Map<string, { agent: Agent; parent: Agent | undefined }>();
  const visit = (agent: Agent, parent: Agent | undefined): void => {
    if (!tree.has(agent.name)) tree.set(agent.name, { agent, parent });
    for (const sub of agent.subAgents) visit(sub, agent);
  };
  visit(root, undefined);
  return tree;
}

/**
 * Whether an agent can answer a turn on its own and hand the conversation back: it and every agent
 * above it up to the root are chat-model agents (team members) that may transfer to their parent.
 * Google ADK's `_is_transferable_across_agent_tree`.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const billing = new ChatModelAgent({
 *   name: 'billing',
 *   model: new ScriptedChatModel(['Refunded.']),
 *   disallowTransferToParent: true,
 * });
 * const triage = new ChatModelAgent({ name: 'triage', model: new ScriptedChatModel(['Hi!']), subAgents: [billing] });
 * canHoldConversation('billing', agentTree(triage)); // false: billing has disallowTransferToParent
 * ```
 */
export function canHoldConversation(
  name: string,
  tree: ReadonlyMap<string, { agent: Agent; parent: Agent | undefined }>,
): boolean {
  let entry = tree.get(name);
  while (entry) {
    if (!isTeamMember(entry.agent) || !entry.agent.transferRules.toParent) return false;
    entry = entry.parent ? tree.get(entry.parent.name) : undefined;
  }
  return true;
}

/**
 * The agent that answers a new user turn, as Google ADK's runner picks it (`_find_agent_to_run`): going
 * back through the conversation from its end, the author of the first agent message that is the root,
 * or an agent that {@link canHoldConversation}; authors that are neither (an agent that may not
 * transfer to its parent, a workflow agent's sub-agent, an unknown name) are passed over. With none,
 * the root.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const billing = new ChatModelAgent({ name: 'billing', model: new ScriptedChatModel(['Refunded.']) });
 * const tech = new ChatModelAgent({ name: 'tech', model: new ScriptedChatModel(['Restart it.']) });
 * const triage = new ChatModelAgent({ name: 'triage', model: new ScriptedChatModel(['Hi!']), subAgents: [billing, tech] });
 * const messages = [userMessage('I was charged twice'), { ...assistantMessage('Hello!'), author: 'triage' }];
 * const next = agentForNextTurn(messages, triage, agentTree(triage)); // 'triage': no one took over
 * ```
 */
export function agentForNextTurn(
  messages: readonly Message[],
  root: Agent,
  tree: ReadonlyMap<string, { agent: Agent; parent: Agent | undefined }>,
): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const author = messages[i]?.author;
    if (author === undefined || author === 'user' || messages[i]?.role === 'user') continue;
    if (author === root.name) return root.name;
    if (tree.has(author) && canHoldConversation(author, tree)) return author;
  }
  return root.name;
}

/**
 * The agent that takes the turn back after the agent `finished` ended with a loop break (`exit_loop`):
 * the one that transferred to `finished`, which continues in the same turn (as in Google ADK, where the
 * loop's last event is a tool response, not a final answer). Undefined when `finished` did not end with
 * a loop break or was not transferred to.
 *
 * @example
 * ```ts
 * const messages = [userMessage('Write me a poem'), { ...assistantMessage('A poem.'), author: 'writer' }];
 * const back = resumerAfterLoopExit('refine', messages); // undefined: the last message is no exit_loop result
 * ```
 */
export function resumerAfterLoopExit(finished: string, messages: readonly Message[]): string | undefined {
  const last = messages.at(-1);
  if (last?.role !== 'tool' || last.name !== EXIT_LOOP_TOOL || last.status === 'error') return undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as Message;
    if (handOffRecordOf(message)?.transferred_to === finished) return message.author;
  }
  return undefined;
}
