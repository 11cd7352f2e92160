import type { AgentMiddleware, MiddlewareContext, ModelRequest } from '../agent/middleware.js';
import { AdkError } from '../errors/adk-error.js';
import { eventId } from '../internal/event-id.js';
import type { Message, UserMessage } from '../message/message.js';
import { userMessage } from '../message/message-constructors.js';
import { messageText } from '../message/message-text.js';
import { removeAllMessages } from '../message/messages-reducer.js';
import type { ChatModel } from '../model/chat-model.js';
import { summarizeMessages } from './compaction-summary.js';
import { reportContextEvent } from './context-event.js';
import { defaultTokenEstimator, type TokenEstimator } from './token-estimator.js';
import { isContextNote, SUMMARY_ID_PREFIX, splitForCompaction, TASK_REMINDER_ID_PREFIX } from './turns.js';

/** Options of {@link compaction}. */
export interface CompactionOptions {
  /** Writes the summaries; may be cheaper than the agent's model. */
  readonly model: ChatModel;
  /** Compact when the history's estimated tokens exceed this. */
  readonly thresholdTokens: number;
  /** Turns kept verbatim (≥ 1); a turn is a user message, or an assistant message with its tool results. */
  readonly keepLastTurns: number;
  /**
   * Put after the summary: a text, a function of the hook context, or `false` for none. Default: the
   * user's latest request, quoted (carried over from the previous reminder once it was summarized).
   */
  readonly taskReminder?: string | ((ctx: MiddlewareContext) => string | undefined) | false;
  readonly estimator?: TokenEstimator;
  /** Replaces the summarizing model's instruction. */
  readonly summaryInstruction?: string;
  /** Each message is cut to this many characters in what the summarizer reads (default 4000). */
  readonly maxCharactersPerMessage?: number;
}

/**
 * Middleware that keeps a long conversation within a token threshold: when the history exceeds
 * `thresholdTokens`, the older turns are summarized by `model`, the last `keepLastTurns` turns are kept
 * verbatim (a tool call is never separated from its results), and a task reminder follows the summary.
 * The new history `[summary, reminder, ...kept]` is persisted with `ctx.updateHistory`, so it is
 * checkpointed like any state change; the current call already gets it. Reports a `context-compaction`
 * event. Earlier summaries are summarized again, so the history never grows beyond one summary.
 *
 * @throws AdkError `INVALID_ARGUMENT` for a non-positive threshold or `keepLastTurns` < 1.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const strongModel = new ScriptedChatModel(['Done.']); // any ChatModel, e.g. a large one
 * const cheapModel = new ScriptedChatModel(['Summary.']); // a small, cheap one
 * const agent = new ChatModelAgent({
 *   name: 'coder',
 *   model: strongModel,
 *   middleware: [compaction({ model: cheapModel, thresholdTokens: 60_000, keepLastTurns: 6 })],
 * });
 * ```
 */
export function compaction(options: CompactionOptions): AgentMiddleware {
  validate(options);
  const estimator = options.estimator ?? defaultTokenEstimator;
  return {
    name: 'compaction',
    async beforeModel(request, ctx) {
      const history = ctx.state.messages;
      const tokensBefore = estimator.messages(history);
      if (tokensBefore <= options.thresholdTokens) return undefined;
      const { older, kept } = splitForCompaction(history, options.keepLastTurns);
      if (!older.some((message) => !isContextNote(message))) return undefined;
      // Through ctx.reportedModel the summary call is part of the run: usage totals, costs and traces.
      const text = await summarizeMessages(ctx.reportedModel?.(options.model) ?? options.model, older, {
        ...(options.summaryInstruction ? { instruction: options.summaryInstruction } : {}),
        ...(options.maxCharactersPerMessage
          ? { maxCharactersPerMessage: options.maxCharactersPerMessage }
          : {}),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      const summary = userMessage(`Summary of the conversation so far:\n${text}`, {
        id: eventId(SUMMARY_ID_PREFIX.slice(0, -1)),
      });
      const reminderText = taskReminder(options, ctx, history);
      const notes: UserMessage[] = reminderText
        ? [summary, userMessage(reminderText, { id: eventId(TASK_REMINDER_ID_PREFIX.slice(0, -1)) })]
        : [summary];
      ctx.updateHistory([removeAllMessages(), ...notes, ...kept]);
      await reportContextEvent(ctx, 'context-compaction', {
        summarized: older.length,
        kept: kept.length,
        tokensBefore,
        tokensAfter: estimator.messages([...notes, ...kept]),
        summaryId: summary.id ?? '',
      });
      return withNewHistory(request, older, notes);
    },
  };
}

/** The request with the summarized messages replaced by the notes (after the leading system messages). */
function withNewHistory(
  request: ModelRequest,
  older: readonly Message[],
  notes: readonly Message[],
): ModelRequest {
  const gone = new Set(older.map((message) => message.id));
  let lead = 0;
  while (request.messages[lead]?.role === 'system') lead++;
  const rest = request.messages.slice(lead).filter((message) => !gone.has(message.id));
  return { ...request, messages: [...request.messages.slice(0, lead), ...notes, ...rest] };
}

function taskReminder(
  options: CompactionOptions,
  ctx: MiddlewareContext,
  history: readonly Message[],
): string | undefined {
  const { taskReminder: reminder } = options;
  if (reminder === false) return undefined;
  if (typeof reminder === 'string') return reminder;
  if (typeof reminder === 'function') return reminder(ctx);
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i] as Message;
    if (message.role !== 'user') continue;
    if (message.id?.startsWith(TASK_REMINDER_ID_PREFIX)) return messageText(message);
    if (!isContextNote(message))
      return `Reminder of your task — the user's latest request was:\n"""\n${messageText(message)}\n"""\nContinue with it.`;
  }
  return undefined;
}

function validate(options: CompactionOptions): void {
  if (!(options.thresholdTokens > 0)) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      `compaction: thresholdTokens must be positive, got ${options.thresholdTokens}`,
    );
  }
  if (!(Number.isInteger(options.keepLastTurns) && options.keepLastTurns >= 1)) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      `compaction: keepLastTurns must be an integer ≥ 1, got ${options.keepLastTurns}`,
    );
  }
}
