/**
 * Translations of content files are copies of the English file with their text translated (docs/i18n.md). Only text
 * is taken from them: every number, flag and identifier comes from the English file, so a translation can never change
 * a price, a link or which product a row is about.
 */

/** String fields that name, link or classify rather than read: never taken from a translation. */
const NON_TEXT_KEYS = new Set([
  "id",
  "slug",
  "value",
  "product",
  "productId",
  "path",
  "href",
  "url",
  "src",
  "shopUrl",
  "category",
  "status",
  "type",
  "date",
  "lastUpdated",
  "version",
  "size",
  "price",
  "code",
  "expires",
  "at",
  "startedAt",
  "resolvedAt",
  "parseRules",
  "avatar",
  "color",
]);

/** Keys whose value identifies an array element: a translated element must name the same one. */
const ELEMENT_KEYS = ["id", "slug", "value", "product", "code"] as const;

export interface TranslationReport {
  /** Paths of English text the translation does not have (shown in English). */
  missing: string[];
  /** Parts of the translation that were not used, and why. */
  ignored: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function elementKey(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  for (const key of ELEMENT_KEYS) if (value[key] !== undefined) return `${key}=${String(value[key])}`;
  return undefined;
}

/** `english` with each text string replaced by the translation's string at the same place, where it has one. */
export function overlayTranslation(
  english: unknown,
  translated: unknown,
  report: TranslationReport,
  at = "",
  key?: string,
): unknown {
  if (key !== undefined && NON_TEXT_KEYS.has(key)) return english;
  if (typeof english === "string") {
    if (typeof translated === "string" && translated.trim() !== "") return translated;
    if (english.trim() !== "") report.missing.push(at);
    return english;
  }
  if (Array.isArray(english)) {
    if (!Array.isArray(translated)) {
      if (translated !== undefined) report.ignored.push(`${at}: expected a list`);
      collectText(english, report, at);
      return english;
    }
    // A list of plain text (features, requirements) may be as long as the language needs.
    if (english.every((item) => typeof item === "string") && translated.every((item) => typeof item === "string"))
      return translated.length > 0 ? translated : english;
    return english.map((item, i) => {
      const other = translated[i];
      if (elementKey(item) !== elementKey(other)) {
        if (other !== undefined)
          report.ignored.push(`${at}[${i}]: is not ${elementKey(item)} (the lists' order differs)`);
        collectText(item, report, `${at}[${i}]`);
        return item;
      }
      return overlayTranslation(item, other, report, `${at}[${i}]`);
    });
  }
  if (isRecord(english)) {
    // A coloured badge (`{label, color}`) may be translated as its bare label, as plain badges are.
    const other = isRecord(translated)
      ? translated
      : typeof translated === "string" && typeof english.label === "string"
        ? { label: translated }
        : {};
    if (translated !== undefined && !isRecord(translated) && other.label === undefined)
      report.ignored.push(`${at}: expected an object`);
    for (const name of Object.keys(other))
      if (!(name in english)) report.ignored.push(`${at ? `${at}.` : ""}${name}: not in the English file`);
    return Object.fromEntries(
      Object.entries(english).map(([name, value]) => [
        name,
        overlayTranslation(value, other[name], report, at ? `${at}.${name}` : name, name),
      ]),
    );
  }
  return english;
}

/** Reports every text string of `english` as missing (a list walks its items: handing it back would never end). */
function collectText(english: unknown, report: TranslationReport, at: string) {
  if (!Array.isArray(english)) overlayTranslation(english, undefined, report, at);
  else for (const [i, item] of english.entries()) collectText(item, report, `${at}[${i}]`);
}

/** `english` with every text string passed through `translate` (the pseudo-locale's content). */
export function mapText(english: unknown, translate: (text: string) => string, key?: string): unknown {
  if (key !== undefined && NON_TEXT_KEYS.has(key)) return english;
  if (typeof english === "string") return translate(english);
  if (Array.isArray(english)) return english.map((item) => mapText(item, translate));
  if (isRecord(english))
    return Object.fromEntries(Object.entries(english).map(([name, value]) => [name, mapText(value, translate, name)]));
  return english;
}
