import type { AssistantMessage, Message, ToolMessage } from '../message/message.js';

/**
 * The conversation as a model is sent it when tool calls got results after their turn (a long-running
 * tool's progress and final result, sent in later as tool messages), read as Google ADK reads such a
 * history:
 * - when the conversation ends with results for calls of an earlier reply, everything between that
 *   reply and them is left out, except the reply's other results: the model sees the calls, then their
 *   latest results;
 * - every reply with tool calls is followed by the latest result of each of its calls, in call order;
 *   earlier results of a call, and the results where they were sent, are left out.
 * A conversation whose calls each have one result, right after them, is returned as it is.
 *
 * @example
 * ```ts
 * const call = { id: 'job', name: 'render', arguments: '{}' };
 * const messages = [
 *   userMessage('Render it'),
 *   assistantMessage('', { toolCalls: [call] }),
 *   toolMessage('pending', { toolCallId: 'job', name: 'render' }),
 *   assistantMessage('It is rendering.'),
 *   toolMessage('done: video.mp4', { toolCallId: 'job', name: 'render' }),
 * ];
 * latestResultsView(messages); // [user, the call, 'done: video.mp4']
 * ```
 */
export function latestResultsView(messages: readonly Message[]): readonly Message[] {
  // The common case, checked without allocating (it runs before every model call): each result right
  // after the reply that called it, once.
  if (resultsInPlace(messages)) return messages;
  const answered = answeredLater(messages);
  return callsWithLatestResults(answered === undefined ? messages : focusOn(messages, answered));
}

/** True when every tool result follows the reply holding its call, with only that reply's results between. */
function resultsInPlace(messages: readonly Message[]): boolean {
  let reply: AssistantMessage | undefined;
  let runStart = 0;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as Message;
    if (message.role !== 'tool') {
      reply = message.role === 'assistant' ? message : undefined;
      runStart = i + 1;
      continue;
    }
    if (!reply?.toolCalls?.some((call) => call.id === message.toolCallId)) return false;
    for (let j = runStart; j < i; j++)
      if ((messages[j] as ToolMessage).toolCallId === message.toolCallId) return false;
  }
  return true;
}

/** Where the trailing results start and the reply whose calls they answer, when that reply is earlier. */
interface LateAnswer {
  readonly start: number;
  readonly reply: number;
}

function answeredLater(messages: readonly Message[]): LateAnswer | undefined {
  let start = messages.length;
  while (start > 0 && messages[start - 1]?.role === 'tool') start--;
  if (start === messages.length) return undefined;
  const ids = new Set(messages.slice(start).map((m) => (m as ToolMessage).toolCallId));
  const holds = (message: Message | undefined) =>
    message?.role === 'assistant' && (message.toolCalls ?? []).some((call) => ids.has(call.id));
  if (holds(messages[start - 1])) return undefined;
  for (let reply = start - 2; reply >= 0; reply--) if (holds(messages[reply])) return { start, reply };
  return undefined;
}

/** The conversation up to the reply, its calls' results in between, then the trailing results. */
function focusOn(messages: readonly Message[], late: LateAnswer): Message[] {
  const reply = messages[late.reply] as AssistantMessage;
  const ids = new Set((reply.toolCalls ?? []).map((call) => call.id));
  const between = messages
    .slice(late.reply + 1, late.start)
    .filter((m) => m.role === 'tool' && ids.has(m.toolCallId));
  return [...messages.slice(0, late.reply + 1), ...between, ...messages.slice(late.start)];
}

function callsWithLatestResults(messages: readonly Message[]): Message[] {
  const latest = new Map<string, ToolMessage>();
  const called = new Set<string>();
  for (const message of messages) {
    if (message.role === 'tool') latest.set(message.toolCallId, message);
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) called.add(call.id);
  }
  const view: Message[] = [];
  for (const message of messages) {
    // A result is placed after its call; one whose call is not in the conversation stays where it is.
    if (message.role === 'tool' && called.has(message.toolCallId)) continue;
    view.push(message);
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls ?? []) {
      const result = latest.get(call.id);
      if (result) view.push(result);
    }
  }
  return view;
}
