import { AdkError } from '../errors/adk-error.js';
import type { Message } from './message.js';

/**
 * A marker that deletes the message with `id` when given to {@link messagesReducer}.
 *
 * @example
 * ```ts
 * const marker: RemoveMessage = removeMessage('msg-3');
 * ```
 */
export interface RemoveMessage {
  readonly type: 'remove-message';
  readonly id: string;
}

/**
 * A marker that clears the whole history when given to {@link messagesReducer}; messages after it in
 * the same update form the new history.
 *
 * @example
 * ```ts
 * const marker: RemoveAllMessages = removeAllMessages();
 * ```
 */
export interface RemoveAllMessages {
  readonly type: 'remove-all-messages';
}

/**
 * What {@link messagesReducer} accepts: one message or marker, or a list of them applied in order.
 *
 * @example
 * ```ts
 * const update: MessagesUpdate = [removeMessage('msg-1'), userMessage('again')];
 * ```
 */
export type MessagesUpdate =
  | Message
  | RemoveMessage
  | RemoveAllMessages
  | readonly (Message | RemoveMessage | RemoveAllMessages)[];

/**
 * Creates a marker that deletes the message with `id` from the history.
 *
 * @example
 * ```ts
 * const current = [userMessage('Hi', { id: 'msg-1' }), assistantMessage('Hello!', { id: 'msg-2' })];
 * const history = messagesReducer(current, removeMessage('msg-2')); // [the user's message]
 * ```
 */
export function removeMessage(id: string): RemoveMessage {
  return { type: 'remove-message', id };
}

/**
 * Creates a marker that clears the history (e.g. to replace it by a summary).
 *
 * @example
 * ```ts
 * const current = [userMessage('Hi'), assistantMessage('Hello!'), userMessage('Plan my week')];
 * const summary = systemMessage('Summary: the user greeted us.');
 * const lastTurns = current.slice(-1);
 * const history = messagesReducer(current, [removeAllMessages(), summary, ...lastTurns]); // [summary, 'Plan my week']
 * ```
 */
export function removeAllMessages(): RemoveAllMessages {
  return { type: 'remove-all-messages' };
}

const autoId = /^msg-(\d+)$/;

function isList(update: MessagesUpdate): update is readonly (Message | RemoveMessage | RemoveAllMessages)[] {
  return Array.isArray(update);
}

function idSource(items: readonly (Message | RemoveMessage | RemoveAllMessages)[]): () => string {
  let last = 0;
  for (const item of items) {
    const match = 'id' in item && item.id !== undefined ? autoId.exec(item.id) : null;
    if (match?.[1] !== undefined) last = Math.max(last, Number(match[1]));
  }
  return () => `msg-${++last}`;
}

/**
 * Merges a messages update into a history, for use as a StateGraph reducer. Items are applied in
 * order: a message whose id is already present replaces that message in place; a new message is
 * appended; {@link removeMessage} deletes one and {@link removeAllMessages} clears all. Messages
 * without an id get a deterministic one (`msg-1`, `msg-2`, … continuing after the highest in the history or the update), so
 * replaying an update gives the same history. Never mutates its inputs.
 *
 * @throws {AdkError} `INVALID_ARGUMENT` when a removal names an id that is not in the history.
 * @example
 * ```ts
 * let history = messagesReducer([], [userMessage('hi'), assistantMessage('hello', { id: 'a1' })]);
 * history = messagesReducer(history, assistantMessage('Hello!', { id: 'a1' })); // replaced in place
 * history = messagesReducer(history, removeMessage('msg-1')); // the user message is gone
 * ```
 */
export function messagesReducer(current: readonly Message[], update: MessagesUpdate): Message[] {
  const items = isList(update) ? update : [update];
  const nextId = idSource([...current, ...items]);
  const byId = new Map<string, Message>();
  for (const message of current) {
    const id = message.id ?? nextId();
    byId.set(id, message.id === undefined ? { ...message, id } : message);
  }
  for (const item of items) {
    if ('type' in item) {
      if (item.type === 'remove-all-messages') byId.clear();
      else if (!byId.delete(item.id)) {
        throw new AdkError(
          'INVALID_ARGUMENT',
          `removeMessage("${item.id}"): the history has no message with this id; remove only ids that are present`,
        );
      }
      continue;
    }
    const id = item.id ?? nextId();
    byId.set(id, item.id === undefined ? { ...item, id } : item);
  }
  return [...byId.values()];
}
