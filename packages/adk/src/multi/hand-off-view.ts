import { historyFor } from '../agent/history-view.js';
import type { Message } from '../message/message.js';
import { userMessage } from '../message/message-constructors.js';
import { type HandOffRecord, handOffRecordOf } from './transfer.js';

/**
 * The conversation as an agent of a team sees it: {@link historyFor}, except that before the latest
 * hand-off to this agent only what the hand-off's context policy lets through is shown (the whole
 * history, the last message, a summary, or the user's latest message). Without a hand-off to the agent
 * it equals `historyFor`.
 *
 * @example
 * ```ts
 * const messages = [userMessage('I was charged twice'), assistantMessage('Let me pass you to billing.')];
 * const view = conversationFor('billing', messages); // no hand-off yet: the whole conversation
 * ```
 */
export function conversationFor(agentName: string, messages: readonly Message[]): Message[] {
  const at = lastHandOffTo(agentName, messages);
  if (!at || at.record.context === 'full') return historyFor(agentName, messages);
  const before = messages.slice(0, at.index + 1);
  const after = messages.slice(at.index + 1);
  return [...contextBefore(agentName, before, at.record), ...historyFor(agentName, after)];
}

function lastHandOffTo(
  agentName: string,
  messages: readonly Message[],
): { index: number; record: HandOffRecord } | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const record = handOffRecordOf(messages[i] as Message);
    if (record?.transferred_to === agentName) return { index: i, record };
  }
  return undefined;
}

function contextBefore(agentName: string, before: readonly Message[], record: HandOffRecord): Message[] {
  const latestUser = [...before].reverse().find((m) => m.role === 'user' && m.author === undefined);
  switch (record.context) {
    case 'lastMessage': {
      const last = historyFor(agentName, before).at(-1);
      return last ? [last] : [];
    }
    case 'summary':
      return [
        userMessage(`For context: summary of the conversation so far: ${record.summary ?? ''}`, {
          id: 'handoff-summary',
        }),
        ...(latestUser ? [latestUser] : []),
      ];
    case 'isolated':
      return latestUser ? [latestUser] : [];
    case 'full':
      return historyFor(agentName, before);
  }
}
