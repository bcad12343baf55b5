import { useMemo } from "react";
import { useLocation } from "react-router";
import { type AnyLocale, type LocaleInfo, localeInfo, localeOfPath, localizedPath } from "./locales";

export interface PageLocale extends LocaleInfo {
  locale: AnyLocale;
  /** A site path (`/products`) in this page's language (`/de/products`). */
  path(to: string): string;
}

/** The page's language, from its URL (as the server rendered it), and its way of writing site links. */
export function useLocale(): PageLocale {
  const locale = localeOfPath(useLocation().pathname);
  return useMemo(() => ({ locale, ...localeInfo(locale), path: (to: string) => localizedPath(to, locale) }), [locale]);
}
