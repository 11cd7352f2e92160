import { type Cost, costOf, type PriceTable } from '@weft/adk/prices';
import type { WireEvent } from '../../../src/shared/wire.ts';
import type { UsageJson } from '../conversation/conversation-model.ts';
import { callUsage } from './call-usage.ts';

/** What a set of model calls cost: the priced part in US dollars, and the models without a price. */
export interface CostSummary {
  readonly total: number;
  /** Calls that had usage and a price. */
  readonly priced: number;
  /** Models used without a price in the table (their calls are not in `total`). */
  readonly unpriced: readonly string[];
}

/** The model name and usage of a `model-call` event, when it reported usage. */
function callOf(event: WireEvent): { model: string; usage: UsageJson } | undefined {
  if (event.type !== 'model-call') return undefined;
  const usage = callUsage(event);
  return usage ? { model: event.model, usage } : undefined;
}

/**
 * The cost of one model call (a `model-call` event) at the table's price for its model; `undefined`
 * when it reported no usage or its model has no price.
 *
 * @example
 * ```ts
 * callCost(event, prices)?.total; // 0.00042
 * ```
 */
export function callCost(event: WireEvent, prices: PriceTable): Cost | undefined {
  const call = callOf(event);
  return call ? costOf(call.usage, call.model, prices) : undefined;
}

/**
 * The cost of a run's (or an agent's) model calls, summed call by call, with the models that have no
 * price; `undefined` when no call reported usage.
 *
 * @example
 * ```ts
 * costOfCalls(events.filter((e) => e.agent === 'researcher'), prices); // { total: 0.0031, priced: 2, unpriced: [] }
 * ```
 */
export function costOfCalls(events: readonly WireEvent[], prices: PriceTable): CostSummary | undefined {
  let total = 0;
  let priced = 0;
  let seen = false;
  const unpriced: string[] = [];
  for (const event of events) {
    const call = callOf(event);
    if (!call) continue;
    seen = true;
    const cost = costOf(call.usage, call.model, prices);
    if (cost === undefined) {
      if (!unpriced.includes(call.model)) unpriced.push(call.model);
      continue;
    }
    total += cost.total;
    priced += 1;
  }
  return seen ? { total, priced, unpriced } : undefined;
}

/**
 * Dollars for people: two significant digits under a dollar (`$0.0042`), cents above (`$1.25`).
 *
 * @example
 * ```ts
 * formatCost(0.000421); // '$0.00042'
 * ```
 */
export function formatCost(dollars: number): string {
  if (dollars === 0) return '$0';
  return `$${dollars < 1 ? Number(dollars.toPrecision(2)).toString() : dollars.toFixed(2)}`;
}

/** A cost summary as a short label: `$0.0042`, with `+ unpriced` when some models have no price. */
export function costLabel(summary: CostSummary): string {
  const priced = summary.priced > 0 ? formatCost(summary.total) : '';
  const missing = summary.unpriced.length > 0 ? `no price for ${summary.unpriced.join(', ')}` : '';
  return [priced, missing].filter(Boolean).join(' + ');
}
