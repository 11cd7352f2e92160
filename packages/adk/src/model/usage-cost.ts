import type { UsageSummary } from '@weft/compose';
import { type Cost, costOf, defaultPrices, type PriceTable } from './price-lookup.js';

/**
 * The cost of a {@link UsageSummary} (a run's or an agent's totals): each model's tokens at its price,
 * summed, and the models the table has no price for (their tokens are not in the cost).
 *
 * @example
 * ```ts
 * const cost: SummaryCost = { input: 0.001, cachedInput: 0, cacheWrite: 0, output: 0.002, reasoning: 0, total: 0.003, unpriced: [] };
 * ```
 */
export interface SummaryCost extends Cost {
  /** Models used without a price in the table, in first-use order. */
  readonly unpriced: readonly string[];
}

/**
 * Prices usage totals — a run's (`run-end`'s `usageTotals`), an agent's (`usageTotals.byAgent[name]`)
 * or a turn's (the Runner's `turnComplete` event): the cost of each model's tokens, added up.
 *
 * @example
 * ```ts
 * const prices = priceTable(defaultPrices, { 'my-model': { input: 1, output: 2 } });
 * import { ScriptedChatModel } from '@weft/adk/testing';
 * const agent = new ChatModelAgent({ name: 'helper', model: new ScriptedChatModel(['Hello!'], { name: 'my-model' }) });
 * const runner = new Runner({ agent, sessionService: new MemorySessionService() });
 * const events = await drain(runner.run({ userId: 'u1', sessionId: 's1', message: 'Hi' }));
 * const event = events.findLast((e) => e.usageTotals !== undefined)!;
 * const cost = costOfSummary(event.usageTotals!, prices);
 * console.log(`$${cost.total.toFixed(4)}`, cost.unpriced);
 * ```
 */
export function costOfSummary(summary: UsageSummary, prices: PriceTable = defaultPrices): SummaryCost {
  let sum: Cost = { input: 0, cachedInput: 0, cacheWrite: 0, output: 0, reasoning: 0, total: 0 };
  const unpriced: string[] = [];
  for (const [model, usage] of Object.entries(summary.byModel)) {
    const cost = costOf(usage, model, prices);
    if (cost === undefined) {
      unpriced.push(model);
      continue;
    }
    sum = {
      input: sum.input + cost.input,
      cachedInput: sum.cachedInput + cost.cachedInput,
      cacheWrite: sum.cacheWrite + cost.cacheWrite,
      output: sum.output + cost.output,
      reasoning: sum.reasoning + cost.reasoning,
      total: sum.total + cost.total,
    };
  }
  return { ...sum, unpriced };
}
