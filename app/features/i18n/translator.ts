import type { I18n } from "@lingui/core";
import type { AnyLocale } from "./locales";

let translators: ((locale: AnyLocale) => I18n) | undefined;

/**
 * Set once by each entry: the server holds one instance per locale, the client only its page's. Code outside
 * components (`meta`, structured data) asks here rather than importing either, so it runs on both sides.
 */
export function provideTranslators(lookup: (locale: AnyLocale) => I18n) {
  translators = lookup;
}

/** Lingui's instance for `locale`, to translate `msg` descriptors and format numbers and dates outside components. */
export function translatorFor(locale: AnyLocale): I18n {
  if (!translators) throw new Error("translatorFor: no translators provided (entry.server or entry.client sets them)");
  return translators(locale);
}
