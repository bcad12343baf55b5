import { createContext, use } from "react";
import type { DisplayCurrency } from "./money";

/**
 * The currency a page shows prices in, given by the page that shows prices from its loader's `displayCurrency`
 * (`<DisplayCurrencyContext value={loaderData.displayCurrency}>`); elsewhere none, and prices show as charged.
 */
export const DisplayCurrencyContext = createContext<DisplayCurrency | null>(null);

export function useDisplayCurrency(): DisplayCurrency | null {
  return use(DisplayCurrencyContext);
}
