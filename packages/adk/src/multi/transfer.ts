import { z } from 'zod';
import { historyFor } from '../agent/history-view.js';
import { reportedModel } from '../agent/reported-model.js';
import type { Message } from '../message/message.js';
import { systemMessage, userMessage } from '../message/message-constructors.js';
import { messageText } from '../message/message-text.js';
import type { ChatModel } from '../model/chat-model.js';
import { type AnyTool, tool } from '../tool/tool.js';

/**
 * The name of the tool an agent of a team calls to hand the conversation to another agent.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel([{ toolCalls: [{ name: TRANSFER_TOOL, arguments: { agent_name: 'billing' } }] }]);
 * const reply = await model.generate([userMessage('I want a refund')]);
 * const transfers = reply.toolCalls?.filter((call) => call.name === TRANSFER_TOOL); // one call
 * ```
 */
export const TRANSFER_TOOL = 'transfer_to_agent';

/**
 * What the agent taking over a conversation sees of it before the hand-off:
 * - `full` — everything (other agents' replies as `[name] said:` context);
 * - `lastMessage` — only the last message before the hand-off (often the transferring agent's note);
 * - `summary` — a summary of the conversation written by a model at the hand-off;
 * - `isolated` — only the user's latest message.
 * From the hand-off on it sees everything. Hand-off tool calls and results are always hidden.
 *
 * @example
 * ```ts
 * const policy: HandOffContext = 'summary';
 * ```
 */
export type HandOffContext = 'full' | 'lastMessage' | 'summary' | 'isolated';

/**
 * An agent another one may transfer to, as its instruction lists it.
 *
 * @example
 * ```ts
 * const target: TransferTarget = { name: 'billing', description: 'Invoices and refunds', relation: 'sub-agent' };
 * ```
 */
export interface TransferTarget {
  readonly name: string;
  readonly description: string;
  readonly relation: 'sub-agent' | 'parent' | 'peer';
}

/**
 * An agent's place in a team: whom it may transfer to and how each hand-off passes the context.
 *
 * @example
 * ```ts
 * const targets: TransferTarget[] = [{ name: 'billing', description: 'Invoices and refunds', relation: 'sub-agent' }];
 * const place: TeamPlace = { targets, contextFor: () => 'full' };
 * ```
 */
export interface TeamPlace {
  /** Agents it may transfer to (none: it gets no transfer tool). */
  readonly targets: readonly TransferTarget[];
  /** The context policy of a hand-off to `to`. */
  readonly contextFor: (to: string) => HandOffContext;
  /** Writes `summary` hand-offs (default: the transferring agent's model). */
  readonly summaryModel?: ChatModel;
}

/**
 * The result of a transfer call, stored in the history as the hand-off record the next agent's view is
 * built from.
 *
 * @example
 * ```ts
 * const record: HandOffRecord = { transferred_to: 'billing', context: 'summary', summary: 'Wants a refund.' };
 * ```
 */
export interface HandOffRecord {
  readonly transferred_to: string;
  readonly context: HandOffContext;
  readonly summary?: string;
}

/**
 * The `transfer_to_agent` tool of one agent: `agent_name` is an enum of its targets, so a transfer to
 * any other name is a tool error the model reads. For `summary` hand-offs it asks `model` (or the
 * place's `summaryModel`) for a summary of the conversation first.
 *
 * @throws AdkError `INVALID_ARGUMENT` when `place` has no targets.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['The user wants a refund.']); // writes `summary` hand-offs
 * const place: TeamPlace = {
 *   targets: [{ name: 'billing', description: 'Invoices and refunds', relation: 'sub-agent' }],
 *   contextFor: () => 'summary',
 * };
 * const transfer = transferTool('triage', place, model); // the `transfer_to_agent` tool of 'triage'
 * ```
 */
export function transferTool(from: string, place: TeamPlace, model: ChatModel): AnyTool {
  const names = place.targets.map((t) => t.name) as [string, ...string[]];
  return tool({
    name: TRANSFER_TOOL,
    description:
      'Hand the conversation to another agent that is better suited to it; that agent answers the user from then on.',
    parameters: z.object({
      agent_name: z.enum(names).describe('The agent to hand the conversation to'),
    }),
    execute: async ({ agent_name }, context): Promise<HandOffRecord> => {
      const policy = place.contextFor(agent_name);
      if (policy !== 'summary') return { transferred_to: agent_name, context: policy };
      const conversation = historyFor(from, context.messages ?? []);
      // Reported on the run (for the agent that hands off): usage totals, costs and traces count it.
      const chosen = place.summaryModel ?? model;
      const summarizer = context.nodeContext
        ? reportedModel(context.nodeContext, chosen, { agent: from })
        : chosen;
      const summary = await summarize(summarizer, conversation, agent_name, context.signal);
      return { transferred_to: agent_name, context: policy, summary };
    },
  }) as unknown as AnyTool;
}

async function summarize(
  model: ChatModel,
  conversation: readonly Message[],
  to: string,
  signal: AbortSignal,
): Promise<string> {
  const reply = await model.generate(
    [
      systemMessage(
        'You write hand-off notes between agents. Summarize the conversation: what the user wants, what was done, what is still open. Be brief.',
      ),
      ...conversation,
      userMessage(`Summarize the conversation so far for agent "${to}", who takes it over now.`),
    ],
    { signal },
  );
  return messageText(reply);
}

/**
 * The instruction section that lists an agent's transfer targets with their descriptions.
 *
 * @example
 * ```ts
 * transferInstruction([{ name: 'billing', description: 'Invoices', relation: 'sub-agent' }]);
 * ```
 */
export function transferInstruction(targets: readonly TransferTarget[]): string {
  const lines = targets.map((t) => {
    const role = t.relation === 'parent' ? ' (your parent agent)' : t.relation === 'peer' ? ' (a peer)' : '';
    return `- ${t.name}${role}: ${t.description || 'no description'}`;
  });
  return [
    `You can hand the conversation to another agent with the ${TRANSFER_TOOL} tool when it is better suited to the request:`,
    ...lines,
    'Otherwise answer yourself. Do not mention the transfer mechanism to the user.',
  ].join('\n');
}

/**
 * The hand-off record of a tool message, if it answers a successful transfer call.
 *
 * @example
 * ```ts
 * const message = toolMessage([{ type: 'json', value: { transferred_to: 'billing', context: 'full' } }], {
 *   toolCallId: 'call_1',
 *   name: TRANSFER_TOOL,
 * });
 * const record = handOffRecordOf(message); // { transferred_to: 'billing', context: 'full' }
 * ```
 */
export function handOffRecordOf(message: Message): HandOffRecord | undefined {
  if (message.role !== 'tool' || message.name !== TRANSFER_TOOL || message.status === 'error')
    return undefined;
  if (typeof message.content === 'string') return undefined;
  const part = message.content.find((p) => p.type === 'json');
  const value = part && 'value' in part ? part.value : undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Partial<HandOffRecord>;
  return typeof record.transferred_to === 'string' ? (record as HandOffRecord) : undefined;
}
