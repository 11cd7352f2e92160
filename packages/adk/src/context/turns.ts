import type { Message } from '../message/message.js';

/** Id prefix of the summary message a compaction writes. */
export const SUMMARY_ID_PREFIX = 'context-summary-';
/** Id prefix of the task reminder a compaction writes after the summary. */
export const TASK_REMINDER_ID_PREFIX = 'context-task-';

/**
 * True for the summary message written by `compaction`.
 *
 * @example
 * ```ts
 * const history = [userMessage('Hi'), assistantMessage('Hello! How can I help?'), userMessage('Plan my week')];
 * const compacted = history.some(isCompactionSummary);
 * ```
 */
export function isCompactionSummary(message: Message): boolean {
  return message.id?.startsWith(SUMMARY_ID_PREFIX) ?? false;
}

/**
 * True for messages the context engine wrote (a compaction summary or task reminder), as opposed to
 * what the user, the model or a tool said.
 *
 * @example
 * ```ts
 * const history = [userMessage('Hi'), assistantMessage('Hello! How can I help?'), userMessage('Plan my week')];
 * const userTurns = history.filter((m) => m.role === 'user' && !isContextNote(m));
 * ```
 */
export function isContextNote(message: Message): boolean {
  return isCompactionSummary(message) || (message.id?.startsWith(TASK_REMINDER_ID_PREFIX) ?? false);
}

/**
 * Splits a history into turns that may be kept or summarized as a whole: a turn starts at each user,
 * system or assistant message, and the tool results answering an assistant's calls belong to its turn.
 * A turn boundary therefore never falls between a tool call and its result; when a result answers a
 * call from an earlier turn, the turns in between are merged. Pure.
 *
 * @example
 * ```ts
 * const user = userMessage('What is 6 × 7?');
 * const callingAssistant = assistantMessage('', { toolCalls: [{ id: 'c1', name: 'calc', arguments: '{}' }] });
 * const toolResult = toolMessage('42', { toolCallId: 'c1', name: 'calc' });
 * const answer = assistantMessage('42.');
 * splitTurns([user, callingAssistant, toolResult, answer]); // [[user], [callingAssistant, toolResult], [answer]]
 * ```
 */
export function splitTurns(messages: readonly Message[]): Message[][] {
  const turns: Message[][] = [];
  const callTurn = new Map<string, number>();
  for (const message of messages) {
    if (message.role !== 'tool' || turns.length === 0) {
      turns.push([message]);
      if (message.role === 'assistant')
        for (const call of message.toolCalls ?? []) callTurn.set(call.id, turns.length - 1);
      continue;
    }
    const owner = callTurn.get(message.toolCallId) ?? turns.length - 1;
    if (owner < turns.length - 1) {
      const merged = turns.splice(owner).flat();
      turns.push(merged);
      for (const [id, index] of callTurn) if (index > owner) callTurn.set(id, owner);
    }
    (turns[turns.length - 1] as Message[]).push(message);
  }
  return turns;
}

/** A history cut into the part to summarize and the part kept verbatim. */
export interface CompactionSplit {
  /** Messages to summarize (earlier context notes included). */
  readonly older: readonly Message[];
  /** The last turns, verbatim. */
  readonly kept: readonly Message[];
}

/**
 * Cuts a history before its last `keepLastTurns` turns (context notes never count as turns and are
 * always summarized again). Pure.
 *
 * @example
 * ```ts
 * const history = [userMessage('Hi'), assistantMessage('Hello! How can I help?'), userMessage('Plan my week')];
 * const { older, kept } = splitForCompaction(history, 4);
 * ```
 */
export function splitForCompaction(messages: readonly Message[], keepLastTurns: number): CompactionSplit {
  const turns = splitTurns(messages);
  const older: Message[] = [];
  const kept: Message[][] = [];
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i] as Message[];
    const note = turn.length === 1 && isContextNote(turn[0] as Message);
    if (!note && kept.length < keepLastTurns) kept.unshift(turn);
    else older.unshift(...turn);
  }
  return { older, kept: kept.flat() };
}
