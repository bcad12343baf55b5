import { type AnyLocale, localeOfPath } from "./locales";

/** The language a page request is in, from its URL (`/de/faq` → `de`); an unknown prefix reads as English. */
export function localeOfRequest(request: Request): AnyLocale {
  return localeOfPath(new URL(request.url).pathname);
}
