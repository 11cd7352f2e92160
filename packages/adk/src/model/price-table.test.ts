import { describe, expect, it } from 'vitest';
import { AdkError } from '../errors/adk-error.js';
import { concatMessageChunks } from '../message/message-chunk.js';
import { addUsage, costOf, defaultPrices, priceOf } from './price-lookup.js';
import { priceTable } from './price-table.js';

describe('priceOf', () => {
  it('finds a model by full name, by id after the provider prefix, and by the longest dated prefix', () => {
    const prices = priceTable({
      'gpt-4o': { input: 2.5, output: 10 },
      'gpt-4o-mini': { input: 0.15, output: 0.6 },
      'acme:gpt-4o': { input: 1, output: 1 },
    });
    expect(priceOf('acme:gpt-4o', prices)?.input).toBe(1);
    expect(priceOf('openai:gpt-4o', prices)?.input).toBe(2.5);
    expect(priceOf('gpt-4o-mini-2024-07-18', prices)?.input).toBe(0.15);
    expect(priceOf('gpt-4o-2024-08-06', prices)?.input).toBe(2.5);
    expect(priceOf('gpt-4', prices)).toBeUndefined();
    expect(priceOf('anthropic:claude-sonnet-4-20250514')).toBe(defaultPrices['claude-sonnet-4']);
  });
});

describe('costOf', () => {
  it('bills uncached input, cache reads, cache writes and output at their own rates', () => {
    const prices = { m: { input: 10, output: 20, cachedInput: 1, cacheWrite: 12.5 } };
    const cost = costOf(
      {
        inputTokens: 1_000_000,
        outputTokens: 500_000,
        totalTokens: 1_500_000,
        cachedInputTokens: 400_000,
        cacheWriteTokens: 100_000,
        reasoningTokens: 200_000,
      },
      'm',
      prices,
    );
    const expected = { input: 5, cachedInput: 0.4, cacheWrite: 1.25, output: 10, reasoning: 0, total: 16.65 };
    for (const [field, value] of Object.entries(expected)) {
      expect(cost?.[field as keyof typeof expected]).toBeCloseTo(value, 9);
    }
  });

  it('bills reasoning apart only when the price has a reasoning rate, and is undefined for unknown models', () => {
    const usage = {
      inputTokens: 0,
      outputTokens: 1_000_000,
      totalTokens: 1_000_000,
      reasoningTokens: 250_000,
    };
    const split = costOf(usage, 'r', { r: { input: 1, output: 4, reasoning: 8 } });
    expect([split?.output, split?.reasoning, split?.total]).toEqual([3, 2, 5]);
    expect(costOf(usage, 'r', { r: { input: 1, output: 4 } })?.total).toBe(4);
    expect(costOf(usage, 'unknown-model')).toBeUndefined();
  });
});

describe('priceTable', () => {
  it('lets later tables override and extend earlier ones', () => {
    const prices = priceTable(defaultPrices, {
      'gpt-4o': { input: 1, output: 2 },
      local: { input: 0, output: 0 },
    });
    expect(prices['gpt-4o']).toEqual({ input: 1, output: 2 });
    expect(prices.local).toEqual({ input: 0, output: 0 });
    expect(prices['gpt-4o-mini']).toBe(defaultPrices['gpt-4o-mini']);
  });

  it('rejects a negative or non-finite price, naming the model and the field', () => {
    expect(() => priceTable({ bad: { input: -1, output: 1 } })).toThrow(AdkError);
    expect(() => priceTable({ bad: { input: 1, output: Number.NaN } })).toThrow(/"output" of model "bad"/);
  });
});

describe('usage counts', () => {
  it('addUsage sums every count and keeps optional ones only when reported', () => {
    expect(
      addUsage(
        { inputTokens: 10, outputTokens: 5, totalTokens: 15, cachedInputTokens: 4 },
        { inputTokens: 20, outputTokens: 7, totalTokens: 27, reasoningTokens: 3 },
      ),
    ).toEqual({
      inputTokens: 30,
      outputTokens: 12,
      totalTokens: 42,
      cachedInputTokens: 4,
      reasoningTokens: 3,
    });
    expect(addUsage({ inputTokens: 1, outputTokens: 1, totalTokens: 2 })).toEqual({
      inputTokens: 1,
      outputTokens: 1,
      totalTokens: 2,
    });
  });

  it('concatMessageChunks keeps cached and reasoning counts of streamed usage', () => {
    const message = concatMessageChunks([
      { usage: { inputTokens: 100, cachedInputTokens: 80 } },
      { text: 'hi', usage: { outputTokens: 9, reasoningTokens: 6 } },
    ]);
    expect(message.usage).toEqual({
      inputTokens: 100,
      outputTokens: 9,
      totalTokens: 109,
      cachedInputTokens: 80,
      reasoningTokens: 6,
    });
  });
});
