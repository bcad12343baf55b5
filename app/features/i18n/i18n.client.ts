import { i18n } from "@lingui/core";
import type { AnyLocale } from "./locales";

// Each locale's messages are a chunk of their own: a page loads only its own language's.
const CATALOGUES = {
  en: () => import("~/locales/en/messages.po"),
  de: () => import("~/locales/de/messages.po"),
  es: () => import("~/locales/es/messages.po"),
  "pt-br": () => import("~/locales/pt-br/messages.po"),
  ar: () => import("~/locales/ar/messages.po"),
  "en-xa": () => import("~/locales/en-xa/messages.po"),
} satisfies Record<AnyLocale, unknown>;

/** Loads the page's language before React hydrates, so the client renders the very text the server sent. */
export async function activateLocale(locale: AnyLocale) {
  const { messages } = await CATALOGUES[locale]();
  i18n.loadAndActivate({ locale, messages });
  return i18n;
}
