import type { Message } from '../message/message.js';
import { systemMessage, userMessage } from '../message/message-constructors.js';
import { messageText } from '../message/message-text.js';
import type { ChatModel } from '../model/chat-model.js';
import { isCompactionSummary, isContextNote } from './turns.js';

/** The instruction the summarizing model gets unless `summaryInstruction` replaces it. */
export const DEFAULT_SUMMARY_INSTRUCTION = [
  'You compact the history of an AI agent so it can continue its work with less context.',
  'Write a concise summary of the conversation you are given. Keep: the goals, requests and constraints',
  'of the user; decisions taken; facts learned from tools (file paths, identifiers, numbers, errors);',
  'what was done; and what remains to do. Never invent anything. Plain text, no preamble.',
].join(' ');

/** Options of {@link summarizeMessages}. */
export interface SummarizeOptions {
  readonly instruction?: string;
  /** Each message is cut to this many characters in the transcript (default 4000). */
  readonly maxCharactersPerMessage?: number;
  readonly signal?: AbortSignal;
}

/**
 * Writes messages as a plain-text transcript (`[user] …`, `[assistant → tool] {args}`, `[tool result] …`),
 * each cut to `maxCharacters`. Roles and call pairs do not need to be valid for any provider.
 *
 * @example
 * ```ts
 * toTranscript([userMessage('hi'), assistantMessage('hello')], 1_000); // '[user] hi\n[assistant] hello'
 * ```
 */
export function toTranscript(messages: readonly Message[], maxCharacters: number): string {
  const cut = (text: string) =>
    text.length > maxCharacters
      ? `${text.slice(0, maxCharacters)} … [${text.length - maxCharacters} more characters]`
      : text;
  const lines: string[] = [];
  for (const message of messages) {
    const text = cut(messageText(message));
    if (isCompactionSummary(message)) lines.push(`[summary of earlier conversation] ${text}`);
    else if (isContextNote(message)) continue;
    else if (message.role === 'tool')
      lines.push(`[${message.name} ${message.status === 'error' ? 'failed' : 'result'}] ${text}`);
    else if (message.role === 'assistant') {
      if (text.trim() !== '') lines.push(`[assistant] ${text}`);
      for (const call of message.toolCalls ?? [])
        lines.push(`[assistant → ${call.name}] ${cut(call.arguments)}`);
    } else lines.push(`[${message.role}] ${text}`);
  }
  return lines.join('\n');
}

/**
 * Asks a model for a summary of messages (sent as one transcript, so any model can do it).
 *
 * @throws Whatever the model throws (`MODEL_ERROR`, `ABORTED`).
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const cheapModel = new ScriptedChatModel(['The user asked for 6 × 7; the answer was 42.']);
 * const olderMessages = [userMessage('What is 6 × 7?'), assistantMessage('42.')];
 * const summary = await summarizeMessages(cheapModel, olderMessages, { signal: AbortSignal.timeout(30_000) });
 * ```
 */
export async function summarizeMessages(
  model: ChatModel,
  messages: readonly Message[],
  options: SummarizeOptions = {},
): Promise<string> {
  const transcript = toTranscript(messages, options.maxCharactersPerMessage ?? 4_000);
  const reply = await model.generate(
    [
      systemMessage(options.instruction ?? DEFAULT_SUMMARY_INSTRUCTION),
      userMessage(`Summarize this conversation:\n\n${transcript}`),
    ],
    options.signal ? { signal: options.signal } : {},
  );
  return messageText(reply).trim();
}
