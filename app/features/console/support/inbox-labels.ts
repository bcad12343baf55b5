// How the inbox writes a list's query, a category, a language and a wait: shared by the list and a conversation.
import { useLingui } from "@lingui/react/macro";
import { isLocale, LOCALES } from "~/features/i18n/locales";
import { useLocale } from "~/features/i18n/use-locale";
import { isSupportCategory } from "~/features/support-chat/support-chat";
import { CATEGORY_NAMES } from "~/features/support-chat/support-chat-messages";
import type { InboxScope, InboxState } from "./support.server";

/** The query of a list (and of a conversation opened from it), so "Back" and `j`/`k` stay in that list. */
export function listQuery(list: { state: InboxState; scope: InboxScope; query: string }, page?: number): string {
  const params = new URLSearchParams({ state: list.state, scope: list.scope });
  if (list.query) params.set("q", list.query);
  if (page && page > 1) params.set("page", String(page));
  return params.toString();
}

/** The conversation page's message box: the **Reply** link and the page after a reply or a note open at it. */
export const MESSAGE_BOX_ID = "message";

export function useCategoryName() {
  const { i18n } = useLingui();
  return (category: string) => (isSupportCategory(category) ? i18n._(CATEGORY_NAMES[category]) : category);
}

export function languageName(locale: string): string {
  return isLocale(locale) ? LOCALES[locale].name : locale;
}

/** "3 h 20 min", "2 d 4 h", "5 min": how long it has waited, in the console's language. */
export function useWaitedFor() {
  const { tag } = useLocale();
  return (sinceIso: string, nowIso: string) => {
    const minutes = Math.max(0, Math.floor((Date.parse(nowIso) - Date.parse(sinceIso)) / 60_000));
    const unit = (value: number, name: "minute" | "hour" | "day") =>
      new Intl.NumberFormat(tag, { style: "unit", unit: name, unitDisplay: "short" }).format(value);
    if (minutes < 60) return unit(minutes, "minute");
    const hours = Math.floor(minutes / 60);
    if (hours < 24) return `${unit(hours, "hour")} ${unit(minutes % 60, "minute")}`;
    return `${unit(Math.floor(hours / 24), "day")} ${unit(hours % 24, "hour")}`;
  };
}

/** "Key Reset · Kestrel Studio" (the product is the visitor's own answer). */
export function categoryLine(category: string, product: string): string {
  return product.trim() === "" ? category : `${category} · ${product}`;
}
