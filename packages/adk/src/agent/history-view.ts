import type { AssistantMessage, Message } from '../message/message.js';
import { userMessage } from '../message/message-constructors.js';
import { messageText } from '../message/message-text.js';

/** Tools whose calls and results are bookkeeping between agents, never shown to the next agent. */
const handOffTools = new Set(['transfer_to_agent', 'exit_loop']);

/**
 * The history as one agent sees it in a multi-agent conversation: its own messages as they are; other
 * agents' replies as user-side context (`[writer] said: ...`), without their tool traffic; hand-off
 * tool calls hidden. A single-agent history passes through unchanged.
 *
 * @example
 * ```ts
 * const messages = [userMessage('Write a haiku'), { ...assistantMessage('Autumn moonlight…'), author: 'writer' }];
 * historyFor('critic', messages); // the writer's draft arrives as "[writer] said: ..."
 * ```
 */
export function historyFor(agentName: string, messages: readonly Message[]): Message[] {
  if (!messages.some((m) => m.author !== undefined && m.author !== agentName)) return stripHandOffs(messages);
  const view: Message[] = [];
  for (const message of messages) {
    const foreign = message.author !== undefined && message.author !== agentName;
    if (!foreign) {
      view.push(message);
      continue;
    }
    if (message.role !== 'assistant') continue;
    const text = messageText(message);
    if (text.trim() !== '')
      view.push(
        userMessage(`For context: [${message.author}] said: ${text}`, message.id ? { id: message.id } : {}),
      );
  }
  return stripHandOffs(view);
}

function stripHandOffs(messages: readonly Message[]): Message[] {
  const hidden = new Set<string>();
  const out: Message[] = [];
  for (const message of messages) {
    if (message.role === 'assistant' && message.toolCalls?.some((c) => handOffTools.has(c.name))) {
      const kept = message.toolCalls.filter((c) => {
        if (handOffTools.has(c.name)) hidden.add(c.id);
        return !handOffTools.has(c.name);
      });
      if (kept.length === 0 && messageText(message).trim() === '') continue;
      out.push(kept.length > 0 ? { ...message, toolCalls: kept } : withoutCalls(message));
      continue;
    }
    if (message.role === 'tool' && hidden.has(message.toolCallId)) continue;
    out.push(message);
  }
  return out;
}

function withoutCalls(message: AssistantMessage): AssistantMessage {
  const { toolCalls: _, ...rest } = message;
  return rest;
}
