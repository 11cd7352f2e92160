import type { Part } from '@a2a-js/sdk';
import { type Message, messageText } from '@weft/adk';
import { conversationFor } from '@weft/adk/agent-graph';
import { textPart, toA2aParts } from '../parts/a2a-parts.js';

/** Where a remote agent's reply keeps its A2A ids: `providerMetadata.a2a`. */
export const A2A_METADATA = 'a2a';

/** The remote context and task a reply came from. */
export interface RemoteIds {
  readonly contextId: string;
  readonly taskId: string;
}

/**
 * What a remote agent is sent for its turn, as Google ADK's `RemoteA2aAgent` builds it: the
 * conversation as this agent sees it (others' replies as `[name] said:` context, the hand-off's context
 * policy applied) from after its own last reply — the remote agent already has what came before, in its
 * context, whose id that reply carries.
 *
 * @example
 * ```ts
 * import { userMessage } from '@weft/adk';
 * const { parts, contextId } = requestFor('researcher', [userMessage('Find sources on tides')]);
 * // parts: one text part; contextId: undefined (a new remote context)
 * ```
 */
export function requestFor(
  name: string,
  messages: readonly Message[],
): { parts: Part[]; contextId?: string } {
  const view = conversationFor(name, messages);
  let start = 0;
  let contextId: string | undefined;
  for (let i = view.length - 1; i >= 0; i--) {
    const message = view[i] as Message;
    if (message.role === 'assistant' && message.author === name) {
      start = i + 1;
      contextId = idsOf(message)?.contextId;
      break;
    }
  }
  const parts: Part[] = [];
  for (const message of view.slice(start)) {
    if (message.role === 'user') parts.push(...toA2aParts(message.content));
    else if (message.role === 'assistant' && message.author !== name) {
      const text = messageText(message);
      if (text.trim() !== '') parts.push(textPart(text));
    }
  }
  return contextId ? { parts, contextId } : { parts };
}

/** The A2A ids a remote agent's reply carries. */
export function idsOf(message: Message): RemoteIds | undefined {
  if (message.role !== 'assistant') return undefined;
  const ids = message.providerMetadata?.[A2A_METADATA];
  return typeof ids?.contextId === 'string'
    ? { contextId: ids.contextId, taskId: typeof ids.taskId === 'string' ? ids.taskId : '' }
    : undefined;
}
