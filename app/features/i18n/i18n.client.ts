import { i18n } from "@lingui/core";
import type { AnyLocale } from "./locales";
import { PAGE_MESSAGES_DIR, takeOverPageMessages } from "./page-messages";

// The dev server has no chunks to split the messages by: a page there loads its language's whole catalogue.
const WHOLE_CATALOGUES = import.meta.env.DEV
  ? ({
      en: () => import("~/locales/en/messages.po"),
      de: () => import("~/locales/de/messages.po"),
      es: () => import("~/locales/es/messages.po"),
      "pt-br": () => import("~/locales/pt-br/messages.po"),
      ar: () => import("~/locales/ar/messages.po"),
      "en-xa": () => import("~/locales/en-xa/messages.po"),
    } satisfies Record<AnyLocale, unknown>)
  : undefined;

/**
 * Loads the messages the page's code uses, in its language, before React hydrates, so the client renders the very text
 * the server sent; chunks loaded later (a lazy panel, another route) bring theirs (`page-messages.ts`).
 */
export async function activateLocale(locale: AnyLocale) {
  if (WHOLE_CATALOGUES) {
    const { messages } = await WHOLE_CATALOGUES[locale]();
    i18n.loadAndActivate({ locale, messages });
    return i18n;
  }
  i18n.loadAndActivate({ locale, messages: {} });
  await takeOverPageMessages(async (key) => {
    const file = `${import.meta.env.BASE_URL}${PAGE_MESSAGES_DIR}/${key}.${locale}.js`;
    const { messages } = (await import(/* @vite-ignore */ file)) as typeof import("*/messages.po");
    i18n.load(locale, messages);
  });
  return i18n;
}
