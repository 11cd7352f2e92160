import type { Message } from '../message/message.js';

/**
 * Estimates how many tokens text and messages take, for budgets and compaction thresholds. Plug in a
 * real tokenizer for exact counts; the default is {@link approximateTokenEstimator}.
 *
 * @example
 * ```ts
 * const estimator: TokenEstimator = approximateTokenEstimator({ charactersPerToken: 3 });
 * estimator.messages([userMessage('Hello there')]); // 4 overhead + 4 text
 * ```
 */
export interface TokenEstimator {
  /** Tokens of a piece of text. */
  text(text: string): number;
  /** Tokens of messages as sent to a model (content, tool calls and a per-message overhead). */
  messages(messages: readonly Message[]): number;
}

/** Options of {@link approximateTokenEstimator}. */
export interface ApproximateTokenEstimatorOptions {
  /** Characters per token (default 4, about right for English and code with GPT-style tokenizers). */
  readonly charactersPerToken?: number;
  /** Tokens added per message for its role and framing (default 4). */
  readonly messageOverhead?: number;
  /** Tokens counted per image part (default 85, a low-detail image). */
  readonly imageTokens?: number;
}

/**
 * A tokenizer-free estimator: `ceil(characters / 4)` per text, plus a per-message overhead, tool-call
 * names and arguments, and a fixed cost per image. Cheap, deterministic, and close enough for budgets.
 *
 * @example
 * ```ts
 * const estimate = approximateTokenEstimator();
 * estimate.text('12345678'); // 2
 * ```
 */
export function approximateTokenEstimator(options: ApproximateTokenEstimatorOptions = {}): TokenEstimator {
  const perToken = options.charactersPerToken ?? 4;
  const overhead = options.messageOverhead ?? 4;
  const image = options.imageTokens ?? 85;
  const text = (value: string): number => Math.ceil(value.length / perToken);
  const one = (message: Message): number => {
    let tokens = overhead;
    if (typeof message.content === 'string') tokens += text(message.content);
    else
      for (const part of message.content) {
        if (part.type === 'text') tokens += text(part.text);
        else if (part.type === 'json') tokens += text(JSON.stringify(part.value));
        else tokens += image;
      }
    if (message.role === 'assistant')
      for (const call of message.toolCalls ?? []) tokens += text(call.name) + text(call.arguments);
    return tokens;
  };
  return {
    text,
    messages: (messages) => messages.reduce((sum, message) => sum + one(message), 0),
  };
}

/**
 * The estimator the context engine uses when none is given: {@link approximateTokenEstimator} with
 * its defaults (4 characters a token, 4 tokens per message).
 *
 * @example
 * ```ts
 * const history = [userMessage('Hi'), assistantMessage('Hello! How can I help?')];
 * const needsCompaction = defaultTokenEstimator.messages(history) > 8_000; // false
 * ```
 */
export const defaultTokenEstimator: TokenEstimator = approximateTokenEstimator();
