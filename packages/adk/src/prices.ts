/**
 * `@weft/adk/prices` — for pricing model calls: model prices and the cost of usage, with no run-time
 * dependency (not even `@weft/compose`), so a browser app can price model calls — the playground's web
 * app does. `priceTable`, which checks a table and throws an `AdkError`, is in `@weft/adk`.
 *
 * @packageDocumentation
 */
export {
  addUsage,
  type Cost,
  costOf,
  defaultPrices,
  type ModelPrice,
  type PriceTable,
  priceOf,
} from './model/price-lookup.js';
export { costOfSummary, type SummaryCost } from './model/usage-cost.js';
