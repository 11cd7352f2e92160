import { defaultPrices, type PriceTable } from '@weft/adk/prices';
import { createContext, useContext } from 'react';

/** The model prices the server sends (adk's defaults with the app's `prices` on top). */
export const PricesContext = createContext<PriceTable>(defaultPrices);

/** The prices to compute costs with. */
export function usePrices(): PriceTable {
  return useContext(PricesContext);
}
