import { LOCALE_CODES, LOCALES, type Locale } from "./locales";

/** The languages of an `Accept-Language` header, most preferred first (`q=0` ones dropped). */
export function preferredLanguages(header: string): string[] {
  return header
    .split(",")
    .map((part, index) => {
      const [range = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { range: range.trim().toLowerCase(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter(({ range, weight }) => range !== "" && range !== "*" && weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map(({ range }) => range);
}

/**
 * The shop's locale that best serves a header's first language it speaks: the exact tag (`pt-br`), else the same
 * language in another region (`de-AT` → `de`, `pt-PT` → `pt-br`); null when it speaks none of them.
 */
export function negotiateLocale(header: string | undefined): Locale | null {
  if (!header) return null;
  for (const range of preferredLanguages(header.slice(0, 1000))) {
    const exact = LOCALE_CODES.find((code) => LOCALES[code].tag.toLowerCase() === range);
    if (exact) return exact;
    const language = range.split("-")[0];
    const sameLanguage = LOCALE_CODES.find((code) => LOCALES[code].tag.toLowerCase().split("-")[0] === language);
    if (sameLanguage) return sameLanguage;
  }
  return null;
}
