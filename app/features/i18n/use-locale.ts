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

const ASKED_CURRENCY = /^[A-Z]{3}$/;

/** `?currency=` of the current URL, kept on a site link that has none of its own. */
function withCurrency(to: string, currency: string | null): string {
  if (currency === null || !to.startsWith("/") || /[?&]currency=/.test(to)) return to;
  const hashAt = to.indexOf("#");
  const [target, hash] = hashAt >= 0 ? [to.slice(0, hashAt), to.slice(hashAt)] : [to, ""];
  return `${target}${target.includes("?") ? "&" : "?"}currency=${currency}${hash}`;
}

/** The page's language, from its URL (as the server rendered it), and its way of writing site links. */
export function useLocale(): PageLocale {
  const { pathname, search } = useLocation();
  const locale = localeOfPath(pathname);
  const asked = new URLSearchParams(search).get("currency");
  const currency = asked !== null && ASKED_CURRENCY.test(asked) ? asked : null;
  return useMemo(
    () => ({ locale, ...localeInfo(locale), path: (to: string) => withCurrency(localizedPath(to, locale), currency) }),
    [locale, currency],
  );
}
