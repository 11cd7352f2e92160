import type { AgentMiddleware, MiddlewareContext, ModelRequest } from '../agent/middleware.js';
import { AdkError } from '../errors/adk-error.js';
import type { Message } from '../message/message.js';
import { systemMessage } from '../message/message-constructors.js';
import { messageText } from '../message/message-text.js';
import { reportContextEvent } from './context-event.js';
import { defaultTokenEstimator, type TokenEstimator } from './token-estimator.js';

/**
 * One section of the system prompt. Sections appear in the order given; when the prompt is over its
 * budget the lowest `priority` is dropped first (of equal priorities, the one given last).
 *
 * @example
 * ```ts
 * const today: PromptSection = { id: 'date', priority: 1, text: () => `Today is ${new Date().toDateString()}.` };
 * ```
 */
export interface PromptSection {
  /** Names the section in drop reports. */
  readonly id: string;
  /** Higher survives longer; `Infinity` is never dropped. */
  readonly priority: number;
  /** The text, or a function of the hook context (empty or `undefined` leaves the section out). */
  readonly text: string | ((ctx: MiddlewareContext) => string | undefined | Promise<string | undefined>);
}

/** Options of {@link promptSections}. */
export interface PromptSectionsOptions {
  readonly sections: readonly PromptSection[];
  /** Tokens the whole system prompt may take (the agent's instruction included). */
  readonly budgetTokens: number;
  readonly estimator?: TokenEstimator;
  /** Priority of the agent's own instruction, placed first (default `Infinity`: never dropped). */
  readonly instructionPriority?: number;
  /** Between sections (default a blank line). */
  readonly separator?: string;
}

/** A section with its text resolved. */
export interface ResolvedSection {
  readonly id: string;
  readonly priority: number;
  readonly text: string;
}

/** The outcome of {@link assembleSections}. */
export interface AssembledPrompt {
  readonly text: string;
  /** Ids of the sections kept, in prompt order. */
  readonly kept: readonly string[];
  /** Ids of the sections dropped, in the order they were dropped. */
  readonly dropped: readonly string[];
  /** Estimated tokens of `text` (over the budget only when undroppable sections alone exceed it). */
  readonly tokens: number;
}

/**
 * Joins sections into one prompt within a token budget, dropping the lowest priority first. Pure.
 *
 * @example
 * ```ts
 * const longTips = 'Prefer small functions. '.repeat(100);
 * const prompt = assembleSections(
 *   [{ id: 'base', priority: Infinity, text: 'Be brief.' }, { id: 'tips', priority: 1, text: longTips }],
 *   { budgetTokens: 50 },
 * );
 * prompt.dropped; // ['tips'] when the tips do not fit
 * ```
 */
export function assembleSections(
  sections: readonly ResolvedSection[],
  options: {
    readonly budgetTokens: number;
    readonly estimator?: TokenEstimator;
    readonly separator?: string;
  },
): AssembledPrompt {
  const estimator = options.estimator ?? defaultTokenEstimator;
  const separator = options.separator ?? '\n\n';
  const kept = sections.filter((section) => section.text.trim() !== '');
  const dropped: string[] = [];
  const join = () => kept.map((section) => section.text).join(separator);
  let tokens = estimator.text(join());
  while (tokens > options.budgetTokens) {
    let lowest = -1;
    kept.forEach((section, index) => {
      if (section.priority === Number.POSITIVE_INFINITY) return;
      if (lowest < 0 || section.priority <= (kept[lowest] as ResolvedSection).priority) lowest = index;
    });
    if (lowest < 0) break;
    dropped.push((kept[lowest] as ResolvedSection).id);
    kept.splice(lowest, 1);
    tokens = estimator.text(join());
  }
  return { text: join(), kept: kept.map((section) => section.id), dropped, tokens };
}

/**
 * Middleware that assembles the system prompt from prioritized sections within a token budget: the
 * agent's own instruction comes first, then the sections in order; the lowest priorities are dropped
 * until the prompt fits, and a drop is reported as a `context-sections-dropped` event. Rewrites the
 * system message of each model call in `beforeModel`; the history is untouched.
 *
 * @throws AdkError `INVALID_ARGUMENT` for a non-positive budget or duplicate section ids.
 * @example
 * ```ts
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Done.']);
 * const agent = new ChatModelAgent({
 *   name: 'helper',
 *   model,
 *   instruction: 'You help with code.',
 *   middleware: [
 *     promptSections({
 *       budgetTokens: 2_000,
 *       sections: [
 *         { id: 'style', priority: 5, text: 'Answer in English.' },
 *         { id: 'user', priority: 1, text: (ctx) => `The user is ${String(ctx.session.get('user:name'))}.` },
 *       ],
 *     }),
 *   ],
 * });
 * ```
 */
export function promptSections(options: PromptSectionsOptions): AgentMiddleware {
  validate(options);
  return {
    name: 'promptSections',
    async beforeModel(request, ctx) {
      const [first, ...rest] = request.messages;
      const hasInstruction = first?.role === 'system';
      const base: ResolvedSection = {
        id: 'instruction',
        priority: options.instructionPriority ?? Number.POSITIVE_INFINITY,
        text: hasInstruction ? messageText(first) : '',
      };
      const resolved = await Promise.all(
        options.sections.map(async (section) => ({
          id: section.id,
          priority: section.priority,
          text: (typeof section.text === 'string' ? section.text : await section.text(ctx)) ?? '',
        })),
      );
      const prompt = assembleSections([base, ...resolved], options);
      if (prompt.dropped.length > 0) {
        await reportContextEvent(ctx, 'context-sections-dropped', {
          dropped: [...prompt.dropped],
          budgetTokens: options.budgetTokens,
          tokens: prompt.tokens,
        });
      }
      const history: readonly Message[] = hasInstruction ? rest : request.messages;
      if (prompt.text === '') return { ...request, messages: history } satisfies ModelRequest;
      return { ...request, messages: [systemMessage(prompt.text), ...history] };
    },
  };
}

function validate(options: PromptSectionsOptions): void {
  if (!(options.budgetTokens > 0)) {
    throw new AdkError(
      'INVALID_ARGUMENT',
      `promptSections: budgetTokens must be positive, got ${options.budgetTokens}`,
    );
  }
  const seen = new Set<string>(['instruction']);
  for (const section of options.sections) {
    if (seen.has(section.id)) {
      throw new AdkError(
        'INVALID_ARGUMENT',
        `promptSections: section id "${section.id}" is used twice ("instruction" is the agent's own)`,
      );
    }
    seen.add(section.id);
  }
}
