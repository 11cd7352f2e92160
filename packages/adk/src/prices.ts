// The `@weft/adk/prices` entry: model prices and the cost of usage, with no runtime dependency (not even
// `@weft/compose`), so a browser app can price model calls — the playground's web app does.
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
