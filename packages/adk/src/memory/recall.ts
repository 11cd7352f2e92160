import type { AgentMiddleware, MiddlewareContext } from '../agent/middleware.js';
import { reportContextEvent } from '../context/context-event.js';
import type { PromptSection } from '../context/prompt-sections.js';
import { defaultTokenEstimator, type TokenEstimator } from '../context/token-estimator.js';
import type { Message } from '../message/message.js';
import { systemMessage } from '../message/message-constructors.js';
import { messageText } from '../message/message-text.js';
import type { MemoryEntry, MemoryService } from './memory-service.js';

/**
 * Options of {@link recall} and {@link recallSection}.
 *
 * @example
 * ```ts
 * const memory = new StoreMemoryService({ store: new MemoryStore() });
 * const options: RecallOptions = { memory, limit: 5, budgetTokens: 400 };
 * ```
 */
export interface RecallOptions {
  /** Where to search (default: the Runner's `memoryService`). */
  readonly memory?: MemoryService;
  /** Memories searched per turn (default 5). */
  readonly limit?: number;
  /** Tokens the memories may take in the instruction (default 500): the lowest-scored go first. */
  readonly budgetTokens?: number;
  readonly estimator?: TokenEstimator;
  /** The line above the memories. */
  readonly heading?: string;
}

/** What was recalled for one turn. */
interface Recalled {
  readonly text: string;
}

const DEFAULT_HEADING =
  'What you remember about this user from earlier conversations (use it when it helps; it may be out of date):';

/**
 * Middleware that recalls before each turn (Google ADK's `preload_memory`, Mastra's semantic recall):
 * the turn's user message is searched in the user's long-term memory once, and the hits are appended
 * to the instruction of every model call of that turn, within `budgetTokens`. What was recalled is
 * reported as a `memory-recall` event (stored with the session). Only the session's own user and app
 * are searched; without `memory` the Runner's `memoryService` is; outside a Runner (no session), or with
 * no service at all, it does nothing. To rank memories against other prompt
 * sections under one budget, use {@link recallSection} in `promptSections` instead.
 *
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']); // or any ChatModel
 * const store = new MemoryStore();
 * const memory = new StoreMemoryService({ store });
 * const agent = new ChatModelAgent({
 *   name: 'helper',
 *   model,
 *   instruction: 'You are a helpful assistant.',
 *   middleware: [recall({ memory }), memorize({ memory })],
 * });
 * ```
 */
export function recall(options: RecallOptions = {}): AgentMiddleware {
  const recaller = createRecaller(options);
  return {
    name: 'recall',
    async beforeModel(request, ctx) {
      const recalled = await recaller(ctx, request.messages);
      if (!recalled || recalled.text === '') return undefined;
      const [first, ...rest] = request.messages;
      if (first?.role === 'system') {
        const base = messageText(first);
        return { ...request, messages: [systemMessage(`${base}\n\n${recalled.text}`), ...rest] };
      }
      return { ...request, messages: [systemMessage(recalled.text), ...request.messages] };
    },
  };
}

/**
 * The recalled memories as a section of `promptSections` (id `memories`), so the context engine weighs
 * them against the other sections under its budget; `budgetTokens` still caps the section itself.
 *
 * @example
 * ```ts
 * const memory = new StoreMemoryService({ store: new MemoryStore() });
 * promptSections({ budgetTokens: 4_000, sections: [recallSection({ memory }, 2), { id: 'style', priority: 1, text: 'Be brief.' }] });
 * ```
 */
export function recallSection(options: RecallOptions = {}, priority = 1): PromptSection {
  const recaller = createRecaller(options);
  return {
    id: 'memories',
    priority,
    text: async (ctx) => (await recaller(ctx, ctx.state.messages))?.text,
  };
}

/** Searches once per turn (keyed by the turn's user message) and formats the hits within the budget. */
function createRecaller(options: RecallOptions) {
  const turns = new Map<string, Promise<Recalled>>();
  return (ctx: MiddlewareContext, messages: readonly Message[]): Promise<Recalled> | undefined => {
    const key = ctx.sessionKey;
    const question = lastUserMessage(messages);
    if (!key || !question || !(options.memory ?? ctx.memory)) return undefined;
    const id = JSON.stringify([key.appName, key.userId, key.sessionId, question.id ?? messageText(question)]);
    let recalled = turns.get(id);
    if (!recalled) {
      recalled = search(options, ctx, messageText(question));
      turns.set(id, recalled);
      recalled.catch(() => turns.delete(id));
      // Only the recent turns are kept: a turn's model calls follow one another.
      if (turns.size > 256) turns.delete(turns.keys().next().value as string);
    }
    return recalled;
  };
}

async function search(options: RecallOptions, ctx: MiddlewareContext, query: string): Promise<Recalled> {
  const key = ctx.sessionKey as NonNullable<MiddlewareContext['sessionKey']>;
  const memory = (options.memory ?? ctx.memory) as MemoryService;
  const hits = await memory.search(query, {
    appName: key.appName,
    userId: key.userId,
    limit: options.limit ?? 5,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  const { text, kept } = formatWithin(hits, options);
  await reportContextEvent(ctx, 'memory-recall', {
    query,
    memories: kept.map((hit) => ({
      id: hit.id,
      text: hit.text,
      ...(hit.score === undefined ? {} : { score: hit.score }),
    })),
    dropped: hits.length - kept.length,
  });
  return { text };
}

/** The heading and the hits as lines, dropping the lowest-scored hits until the text fits the budget. */
function formatWithin(
  hits: readonly MemoryEntry[],
  options: RecallOptions,
): { text: string; kept: MemoryEntry[] } {
  const estimator = options.estimator ?? defaultTokenEstimator;
  const budget = options.budgetTokens ?? 500;
  const kept = [...hits];
  const render = () =>
    kept.length === 0
      ? ''
      : [options.heading ?? DEFAULT_HEADING, ...kept.map((hit) => `- ${hit.text}`)].join('\n');
  while (kept.length > 0 && estimator.text(render()) > budget) {
    let lowest = 0;
    kept.forEach((hit, index) => {
      if ((hit.score ?? 0) <= ((kept[lowest] as MemoryEntry).score ?? 0)) lowest = index;
    });
    kept.splice(lowest, 1);
  }
  return { text: render(), kept };
}

function lastUserMessage(messages: readonly Message[]): Message | undefined {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === 'user') return messages[i];
  return undefined;
}
