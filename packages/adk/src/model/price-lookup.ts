// Prices and costs without any runtime dependency: the `@weft/adk/prices` entry (the playground's web
// app prices model calls with it in the browser).
import type { Usage } from '../message/message.js';

/**
 * What a model costs, in US dollars per million tokens. Cached and cache-write rates default to the
 * input rate, the reasoning rate to the output rate, when a provider bills them the same.
 *
 * @example
 * ```ts
 * const price: ModelPrice = { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 };
 * ```
 */
export interface ModelPrice {
  /** Dollars per million uncached input tokens. */
  readonly input: number;
  /** Dollars per million output tokens (reasoning tokens included unless `reasoning` is set). */
  readonly output: number;
  /** Dollars per million input tokens read from the prompt cache (default: `input`). */
  readonly cachedInput?: number;
  /** Dollars per million input tokens written to the prompt cache (default: `input`). */
  readonly cacheWrite?: number;
  /** Dollars per million reasoning tokens, when billed apart from output (default: `output`). */
  readonly reasoning?: number;
}

/**
 * Prices by model id (`gpt-4o-mini`) or by full model name (`openai:gpt-4o-mini`). See
 * {@link priceOf} for how a name is looked up.
 *
 * @example
 * ```ts
 * const prices: PriceTable = { 'my-finetune': { input: 1, output: 2 } };
 * ```
 */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * The cost of one model call (or a sum of calls), in US dollars, by kind of token.
 *
 * @example
 * ```ts
 * const cost: Cost = { input: 0.001, cachedInput: 0, cacheWrite: 0, output: 0.002, reasoning: 0, total: 0.003 };
 * ```
 */
export interface Cost {
  readonly input: number;
  readonly cachedInput: number;
  readonly cacheWrite: number;
  readonly output: number;
  readonly reasoning: number;
  readonly total: number;
}

/**
 * List prices of common models (USD per million tokens, as published by OpenAI and Anthropic in
 * 2025). Prices change: pass your own table to {@link priceTable} to add models or override these.
 *
 * @example
 * ```ts
 * const usage: Usage = { inputTokens: 1_200, outputTokens: 300, totalTokens: 1_500 };
 * const cost = costOf(usage, 'openai:gpt-4o-mini', defaultPrices); // { input: 0.00018, output: 0.00018, total: … }
 * ```
 */
export const defaultPrices: PriceTable = Object.freeze({
  'gpt-4o': { input: 2.5, output: 10, cachedInput: 1.25 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cachedInput: 0.075 },
  'gpt-4.1': { input: 2, output: 8, cachedInput: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cachedInput: 0.1 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cachedInput: 0.025 },
  o3: { input: 2, output: 8, cachedInput: 0.5 },
  'o4-mini': { input: 1.1, output: 4.4, cachedInput: 0.275 },
  'claude-opus-4': { input: 15, output: 75, cachedInput: 1.5, cacheWrite: 18.75 },
  'claude-sonnet-4': { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 },
  'claude-3-7-sonnet': { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cachedInput: 0.08, cacheWrite: 1 },
});

/**
 * The price of a model by name: the exact name (`openai:gpt-4o-mini`), else its id after the
 * `provider:` prefix (`gpt-4o-mini`), else the longest table entry the id starts with, followed by `-`
 * (so `claude-sonnet-4-20250514` finds `claude-sonnet-4`, and `gpt-4o-mini-2024-07-18` finds
 * `gpt-4o-mini`, not `gpt-4o`). `undefined` when none matches.
 *
 * @example
 * ```ts
 * priceOf('anthropic:claude-sonnet-4-20250514', defaultPrices); // { input: 3, output: 15, … }
 * ```
 */
export function priceOf(model: string, prices: PriceTable = defaultPrices): ModelPrice | undefined {
  const exact = prices[model];
  if (exact !== undefined) return exact;
  const colon = model.indexOf(':');
  const id = colon === -1 ? model : model.slice(colon + 1);
  if (prices[id] !== undefined) return prices[id];
  let best: string | undefined;
  for (const name of Object.keys(prices)) {
    if (id.startsWith(`${name}-`) && (best === undefined || name.length > best.length)) best = name;
  }
  return best === undefined ? undefined : prices[best];
}

const perToken = 1 / 1_000_000;

/**
 * The cost of a call's usage at a model's price: uncached input, cache reads, cache writes, output
 * (reasoning apart when the price bills it apart) and the total, in US dollars. `undefined` when the
 * table has no price for the model.
 *
 * @example
 * ```ts
 * const prices = priceTable(defaultPrices, { 'my-model': { input: 1, output: 2 } });
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const model = new ScriptedChatModel(['Hello!'], { name: 'my-model' });
 * const reply = await model.generate([userMessage('Hi')]);
 * const cost = costOf(reply.usage!, 'my-model', prices); // { input: …, output: …, total: … }
 * ```
 */
export function costOf(usage: Usage, model: string, prices: PriceTable = defaultPrices): Cost | undefined {
  const price = priceOf(model, prices);
  if (price === undefined) return undefined;
  const cachedTokens = usage.cachedInputTokens ?? 0;
  const writeTokens = usage.cacheWriteTokens ?? 0;
  const reasoningTokens = price.reasoning === undefined ? 0 : (usage.reasoningTokens ?? 0);
  const input = Math.max(0, usage.inputTokens - cachedTokens - writeTokens) * price.input * perToken;
  const cachedInput = cachedTokens * (price.cachedInput ?? price.input) * perToken;
  const cacheWrite = writeTokens * (price.cacheWrite ?? price.input) * perToken;
  const output = Math.max(0, usage.outputTokens - reasoningTokens) * price.output * perToken;
  const reasoning = reasoningTokens * (price.reasoning ?? price.output) * perToken;
  return {
    input,
    cachedInput,
    cacheWrite,
    output,
    reasoning,
    total: input + cachedInput + cacheWrite + output + reasoning,
  };
}

/**
 * Adds usages up (e.g. the calls of one agent or one run); optional counts are summed where any usage
 * reports them.
 *
 * @example
 * ```ts
 * const first: Usage = { inputTokens: 1_000, outputTokens: 200, totalTokens: 1_200 };
 * const second: Usage = { inputTokens: 1_500, outputTokens: 100, totalTokens: 1_600, cachedInputTokens: 1_000 };
 * const total = addUsage(first, second); // { inputTokens: 2_500, outputTokens: 300, totalTokens: 2_800, cachedInputTokens: 1_000 }
 * ```
 */
export function addUsage(...usages: readonly Usage[]): Usage {
  const sum = (pick: (usage: Usage) => number | undefined): number | undefined =>
    usages.some((usage) => pick(usage) !== undefined)
      ? usages.reduce((total, usage) => total + (pick(usage) ?? 0), 0)
      : undefined;
  const cachedInputTokens = sum((usage) => usage.cachedInputTokens);
  const cacheWriteTokens = sum((usage) => usage.cacheWriteTokens);
  const reasoningTokens = sum((usage) => usage.reasoningTokens);
  return {
    inputTokens: sum((usage) => usage.inputTokens) ?? 0,
    outputTokens: sum((usage) => usage.outputTokens) ?? 0,
    totalTokens: sum((usage) => usage.totalTokens) ?? 0,
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
    ...(cacheWriteTokens === undefined ? {} : { cacheWriteTokens }),
    ...(reasoningTokens === undefined ? {} : { reasoningTokens }),
  };
}
