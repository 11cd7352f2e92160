import { toTranscript } from '../context/compaction-summary.js';
import { isContextNote } from '../context/turns.js';
import { AdkError } from '../errors/adk-error.js';
import type { Message } from '../message/message.js';
import { systemMessage, userMessage } from '../message/message-constructors.js';
import { messageText } from '../message/message-text.js';
import type { ChatModel } from '../model/chat-model.js';
import type { SessionKey } from '../session/session.js';
import type { MemoryEntry } from './memory-service.js';

/** A memory as an extractor proposes it. */
export interface MemoryDraft {
  readonly text: string;
  /** Who it is about or from (default `memory`). */
  readonly author?: string;
}

/** What an extractor receives besides the messages. */
export interface MemoryExtractionContext {
  readonly key: SessionKey;
  /** The user's memories so far (newest first, at most 50), so a model can skip what is known. */
  readonly existing: readonly MemoryEntry[];
  readonly signal?: AbortSignal;
}

/**
 * Turns messages of a session into memories to keep. Built in: {@link verbatimExtractor} (each message's
 * text, as Google ADK's in-memory service keeps events) and {@link modelExtractor} (a model writes the
 * facts worth keeping).
 *
 * @example
 * ```ts
 * const onlyUser: MemoryExtractor = async (messages) =>
 *   messages.filter((m) => m.role === 'user').map((m) => ({ text: messageText(m), author: 'user' }));
 * ```
 */
export type MemoryExtractor = (
  messages: readonly Message[],
  context: MemoryExtractionContext,
) => Promise<readonly MemoryDraft[]>;

/**
 * Keeps the text of each user and assistant message as it is (tool traffic, context notes and empty
 * texts are skipped).
 *
 * @example
 * ```ts
 * const store = new MemoryStore();
 * const memory = new StoreMemoryService({ store, extractor: verbatimExtractor({ roles: ['user'] }) });
 * ```
 */
export function verbatimExtractor(
  options: { readonly roles?: readonly ('user' | 'assistant')[] } = {},
): MemoryExtractor {
  const roles = new Set<string>(options.roles ?? ['user', 'assistant']);
  return async (messages) =>
    messages
      .filter((message) => roles.has(message.role) && !isContextNote(message))
      .filter((message) => !(message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0))
      .map((message) => ({
        text: messageText(message).trim(),
        author: message.role === 'user' ? 'user' : (message.author ?? 'assistant'),
      }))
      .filter((draft) => draft.text !== '');
}

/** The default instruction of {@link modelExtractor}. */
export const DEFAULT_EXTRACTION_INSTRUCTION = [
  'You keep long-term memories about a user. From the conversation, write the facts worth remembering',
  'in later conversations: preferences, personal details, plans, decisions. One short, self-contained',
  'sentence per fact, written about "the user". Skip small talk and what is already known.',
  'Answer with JSON only: {"memories": ["...", "..."]} (an empty list when nothing is worth keeping).',
].join(' ');

/**
 * A model reads the conversation (as a transcript, with the memories already known) and answers the
 * facts worth keeping as JSON (`{"memories": [...]}`; a fenced block or surrounding prose is tolerated).
 *
 * @throws AdkError `MODEL_ERROR` when the answer holds no such JSON (the extraction then stays pending).
 * @example
 * ```ts
 * const extractor = modelExtractor({ model: new ScriptedChatModel(['{"memories":["The user prefers tea."]}']) });
 * ```
 */
export function modelExtractor(options: {
  readonly model: ChatModel;
  readonly instruction?: string;
  /** Characters of each message kept in the transcript (default 4 000). */
  readonly maxCharacters?: number;
}): MemoryExtractor {
  return async (messages, context) => {
    const known = context.existing.map((entry) => `- ${entry.text}`).join('\n');
    const conversation = messages.filter((message) => !isContextNote(message));
    const prompt = [
      known === '' ? 'Known memories: none.' : `Known memories:\n${known}`,
      `Conversation:\n${toTranscript(conversation, options.maxCharacters ?? 4_000)}`,
    ].join('\n\n');
    const reply = await options.model.generate(
      [systemMessage(options.instruction ?? DEFAULT_EXTRACTION_INSTRUCTION), userMessage(prompt)],
      context.signal ? { signal: context.signal } : {},
    );
    return parseMemories(messageText(reply)).map((text) => ({ text, author: 'memory' }));
  };
}

function parseMemories(answer: string): string[] {
  const start = answer.indexOf('{');
  const end = answer.lastIndexOf('}');
  if (start >= 0 && end > start) {
    try {
      const parsed = JSON.parse(answer.slice(start, end + 1)) as { memories?: unknown };
      if (Array.isArray(parsed.memories))
        return parsed.memories.filter((m): m is string => typeof m === 'string' && m.trim() !== '');
    } catch {
      // reported below
    }
  }
  throw new AdkError(
    'MODEL_ERROR',
    `memory extraction: the model's answer holds no {"memories": [...]} JSON: ${answer.slice(0, 200)}`,
  );
}
