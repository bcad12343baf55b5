import { useMatches } from "react-router";
import type { DisplayCurrency } from "./money";

/** The currency the page shows prices in: given by the loader of a page that shows prices (`displayCurrency`). */
export function useDisplayCurrency(): DisplayCurrency | null {
  const matches = useMatches();
  for (const match of matches.toReversed()) {
    const data = match.loaderData as { displayCurrency?: DisplayCurrency | null } | undefined;
    if (data && "displayCurrency" in data) return data.displayCurrency ?? null;
  }
  return null;
}
