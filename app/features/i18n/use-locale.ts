import { useMemo } from "react";
import { useLocation } from "react-router";
import { type AnyLocale, type LocaleInfo, localeInfo, localeOfPath, localizedPath } from "./locales";

export interface PageLocale extends LocaleInfo {
  locale: AnyLocale;
  /**
   * A site path (`/products`) in this page's language (`/de/products`), carrying on the currency the buyer asked for
   * (`?currency=GBP`) so it stays while they browse.
   */
  path(to: string): string;
}

const CURRENCY_CODE = /^[A-Z]{3}$/;

/**
 * The currency the buyer asked for in the page's URL (`?currency=gbp` → `GBP`, as the server reads it), or null: site
 * links and the page's GET forms carry it on, so the choice stays while they browse.
 */
export function useAskedCurrency(): string | null {
  const asked = new URLSearchParams(useLocation().search).get("currency")?.toUpperCase();
  return asked !== undefined && CURRENCY_CODE.test(asked) ? asked : null;
}

/** `?currency=` of the current URL, kept on a site link that has none of its own. */
function withCurrency(to: string, currency: string | null): string {
  if (currency === null || !to.startsWith("/") || /[?&]currency=/.test(to)) return to;
  const hashAt = to.indexOf("#");
  const [target, hash] = hashAt >= 0 ? [to.slice(0, hashAt), to.slice(hashAt)] : [to, ""];
  return `${target}${target.includes("?") ? "&" : "?"}currency=${currency}${hash}`;
}

/** The page's language, from its URL (as the server rendered it), and its way of writing site links. */
export function useLocale(): PageLocale {
  const locale = localeOfPath(useLocation().pathname);
  const currency = useAskedCurrency();
  return useMemo(
    () => ({ locale, ...localeInfo(locale), path: (to: string) => withCurrency(localizedPath(to, locale), currency) }),
    [locale, currency],
  );
}
