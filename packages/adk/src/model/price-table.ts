import { AdkError } from '../errors/adk-error.js';
import type { ModelPrice, PriceTable } from './price-lookup.js';

function checkPrice(name: string, price: ModelPrice): void {
  for (const [field, value] of Object.entries(price)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new AdkError(
        'INVALID_ARGUMENT',
        `priceTable: the price "${field}" of model "${name}" is ${String(value)}; use a finite number ≥ 0 (dollars per million tokens)`,
      );
    }
  }
}

/**
 * Merges price tables, later tables winning for the same model: the way to extend or override
 * {@link defaultPrices}.
 *
 * @throws {AdkError} `INVALID_ARGUMENT` when a price is negative or not a finite number, naming the model.
 * @example
 * ```ts
 * const prices = priceTable(defaultPrices, { 'llama3.2': { input: 0, output: 0 }, 'gpt-4o': { input: 2, output: 8 } });
 * ```
 */
export function priceTable(...tables: readonly PriceTable[]): PriceTable {
  const merged: Record<string, ModelPrice> = {};
  for (const table of tables) {
    for (const [name, price] of Object.entries(table)) {
      checkPrice(name, price);
      merged[name] = price;
    }
  }
  return Object.freeze(merged);
}
