/**
 * The languages the shop speaks. English is the default and lives at `/`; every other locale lives under its own
 * prefix (`/de/products`), so a URL names one language and shared pages stay shared (docs/i18n.md).
 */
export const DEFAULT_LOCALE = "en";

export interface LocaleInfo {
  /** BCP 47 tag for `<html lang>`, hreflang and `Intl`. */
  tag: string;
  /** The language's own name, as the language menu shows it. */
  name: string;
  dir: "ltr" | "rtl";
  /** What prices are shown in until the buyer picks another currency. */
  defaultCurrency: string;
}

export const LOCALES = {
  en: { tag: "en", name: "English", dir: "ltr", defaultCurrency: "USD" },
  de: { tag: "de", name: "Deutsch", dir: "ltr", defaultCurrency: "EUR" },
  es: { tag: "es", name: "Español", dir: "ltr", defaultCurrency: "EUR" },
  "pt-br": { tag: "pt-BR", name: "Português (Brasil)", dir: "ltr", defaultCurrency: "BRL" },
  ar: { tag: "ar", name: "العربية", dir: "rtl", defaultCurrency: "USD" },
} as const satisfies Record<string, LocaleInfo>;

export type Locale = keyof typeof LOCALES;
export const LOCALE_CODES = Object.keys(LOCALES) as Locale[];

/**
 * The test-only pseudo-locale: English accented and about 40% longer, so an English word that escaped the message
 * catalogue, or a layout that cannot take longer text, shows (served only with `PSEUDO_LOCALE=on`).
 */
export const PSEUDO_LOCALE = "en-xa";
export const PSEUDO_LOCALE_INFO: LocaleInfo = { tag: "en-XA", name: "Ƥşḗḗŭḓǿǿ", dir: "ltr", defaultCurrency: "USD" };

/** Every locale code a URL prefix may carry, the pseudo-locale included (the server decides whether it is on). */
export type AnyLocale = Locale | typeof PSEUDO_LOCALE;

export function isLocale(value: string | undefined): value is Locale {
  return value !== undefined && Object.hasOwn(LOCALES, value);
}

export function localeInfo(locale: AnyLocale): LocaleInfo {
  return locale === PSEUDO_LOCALE ? PSEUDO_LOCALE_INFO : LOCALES[locale];
}

/** The locale a URL path is in: its first segment when that names a locale other than the default, else English. */
export function localeOfPath(pathname: string): AnyLocale {
  const first = pathname.split("/", 2)[1];
  if (first === PSEUDO_LOCALE) return PSEUDO_LOCALE;
  return first !== DEFAULT_LOCALE && isLocale(first) ? first : DEFAULT_LOCALE;
}

/** The path without its locale prefix: `/de/products` → `/products`, `/de` → `/`. */
export function pathWithoutLocale(pathname: string): string {
  const locale = localeOfPath(pathname);
  if (locale === DEFAULT_LOCALE) return pathname;
  const rest = pathname.slice(locale.length + 1);
  return rest === "" ? "/" : rest;
}

/** A site path (`/products?page=2`, `/`) in `locale`: `/de/products?page=2`, `/de`. */
export function localizedPath(path: string, locale: AnyLocale): string {
  if (locale === DEFAULT_LOCALE || !path.startsWith("/")) return path;
  if (path === "/") return `/${locale}`;
  return /^\/[?#]/.test(path) ? `/${locale}${path.slice(1)}` : `/${locale}${path}`;
}

/** The page at `path` (a path without locale prefix) in every language, and English as the `x-default`. */
export function languageAlternates(path: string): Array<{ hrefLang: string; path: string }> {
  return [
    ...LOCALE_CODES.map((code) => ({ hrefLang: LOCALES[code].tag, path: localizedPath(path, code) })),
    { hrefLang: "x-default", path: localizedPath(path, DEFAULT_LOCALE) },
  ];
}
