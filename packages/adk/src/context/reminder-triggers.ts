import type { AssistantMessage, Message, ToolMessage } from '../message/message.js';
import { messageText } from '../message/message-text.js';
import { isCompactionSummary, isContextNote } from './turns.js';

/**
 * Decides whether a tool result is progress. Default ({@link isNewResult}): it succeeded and no
 * earlier result of the same tool had the same content.
 *
 * @example
 * ```ts
 * const wroteSomething: ProgressPredicate = (result) => result.name === 'write_file' && result.status !== 'error';
 * ```
 */
export type ProgressPredicate = (result: ToolMessage, earlier: readonly ToolMessage[]) => boolean;

/**
 * The default {@link ProgressPredicate}: a successful result that is new for its tool.
 *
 * @example
 * ```ts
 * const previousCalcResult = toolMessage('42', { toolCallId: 'c1', name: 'calc' });
 * isNewResult(toolMessage('42', { toolCallId: 'c2', name: 'calc' }), [previousCalcResult]); // false: same result
 * ```
 */
export const isNewResult: ProgressPredicate = (result, earlier) => {
  if (result.status === 'error') return false;
  const text = messageText(result);
  return !earlier.some((other) => other.name === result.name && messageText(other) === text);
};

/**
 * Model calls made since the last progress (a tool result the predicate accepts) or since the user's
 * latest message, whichever is later; at most `iteration` (the calls of this invocation). Pure.
 *
 * @example
 * ```ts
 * const nudge: AgentMiddleware = {
 *   name: 'nudge',
 *   beforeModel: (_request, ctx) => {
 *     if (iterationsWithoutProgress(ctx.state.messages, ctx.iteration) >= 3) console.warn('no progress for 3 calls');
 *   },
 * };
 * ```
 */
export function iterationsWithoutProgress(
  messages: readonly Message[],
  iteration: number,
  progress: ProgressPredicate = isNewResult,
): number {
  const earlier: ToolMessage[] = [];
  let stalled = 0;
  for (const message of messages) {
    if (message.role === 'user' && !isContextNote(message)) stalled = 0;
    else if (message.role === 'assistant') stalled++;
    else if (message.role === 'tool') {
      if (progress(message, earlier)) stalled = 0;
      earlier.push(message);
    }
  }
  return Math.min(stalled, iteration);
}

/**
 * True when `messages` (what is about to be sent) holds a compaction summary that the persisted
 * history does not have yet: the history was compacted for this very call. Pure.
 *
 * @example
 * ```ts
 * const watch: AgentMiddleware = {
 *   name: 'watch-compaction',
 *   beforeModel: (request, ctx) => {
 *     if (compactedForThisCall(request.messages, ctx.state.messages)) console.log('history compacted for this call');
 *   },
 * };
 * ```
 */
export function compactedForThisCall(messages: readonly Message[], history: readonly Message[]): boolean {
  const known = new Set(history.map((message) => message.id));
  return messages.some((message) => isCompactionSummary(message) && !known.has(message.id));
}

/**
 * The names of `reply`'s tool calls whose tool is in `category` (per the `categories` map). Pure.
 *
 * @example
 * ```ts
 * const reply = assistantMessage('', { toolCalls: [{ id: 'c1', name: 'delete_file', arguments: '{"path":"a.txt"}' }] });
 * callsInCategory(reply, 'destructive', { delete_file: 'destructive' }); // ['delete_file']
 * ```
 */
export function callsInCategory(
  reply: AssistantMessage,
  category: string,
  categories: Readonly<Record<string, string>>,
): string[] {
  return (reply.toolCalls ?? [])
    .filter((call) => categories[call.name] === category)
    .map((call) => call.name);
}

/**
 * True when, since the user's latest message, the model already called a tool of `category` (so its
 * reminder was shown in this turn). Pure.
 *
 * @example
 * ```ts
 * const messages = [
 *   userMessage('Clean up'),
 *   assistantMessage('', { toolCalls: [{ id: 'c1', name: 'delete_file', arguments: '{"path":"a.txt"}' }] }),
 * ];
 * categoryUsedThisTurn(messages, 'destructive', { delete_file: 'destructive' }); // true
 * ```
 */
export function categoryUsedThisTurn(
  messages: readonly Message[],
  category: string,
  categories: Readonly<Record<string, string>>,
): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as Message;
    if (message.role === 'user' && !isContextNote(message)) return false;
    if (message.role === 'assistant' && callsInCategory(message, category, categories).length > 0)
      return true;
  }
  return false;
}

/**
 * True when the last tool round of `messages` (the tool results after the latest assistant message)
 * holds a successful result of a tool in `category`: a tool of the category just ran. Pure.
 *
 * @example
 * ```ts
 * const messages = [
 *   userMessage('Save it'),
 *   assistantMessage('', { toolCalls: [{ id: 'c1', name: 'write_file', arguments: '{"path":"a.txt"}' }] }),
 *   toolMessage('Written.', { toolCallId: 'c1', name: 'write_file' }),
 * ];
 * ranInLastRound(messages, 'write', { write_file: 'write' }); // true
 * ```
 */
export function ranInLastRound(
  messages: readonly Message[],
  category: string,
  categories: Readonly<Record<string, string>>,
): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as Message;
    if (message.role !== 'tool') return false;
    if (message.status !== 'error' && categories[message.name] === category) return true;
  }
  return false;
}
