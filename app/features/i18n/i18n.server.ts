import { type I18n, setupI18n } from "@lingui/core";
import { messages as ar } from "~/locales/ar/messages.po";
import { messages as de } from "~/locales/de/messages.po";
import { messages as en } from "~/locales/en/messages.po";
import { messages as pseudo } from "~/locales/en-xa/messages.po";
import { messages as es } from "~/locales/es/messages.po";
import { messages as ptBr } from "~/locales/pt-br/messages.po";
import type { AnyLocale } from "./locales";

const CATALOGUES = { en, de, es, "pt-br": ptBr, ar, "en-xa": pseudo } satisfies Record<AnyLocale, unknown>;

const instances = new Map<AnyLocale, I18n>();

/** The server's interface messages in `locale`: one instance per locale, shared by every render in it. */
export function i18nFor(locale: AnyLocale): I18n {
  let i18n = instances.get(locale);
  if (!i18n) {
    i18n = setupI18n({ locale, messages: { [locale]: CATALOGUES[locale] } });
    instances.set(locale, i18n);
  }
  return i18n;
}
