/** Set by the buyer's own choice (a language picked, or the suggestion dismissed); read only by the suggestion. */
export const LANGUAGE_CHOICE_COOKIE = "kestrel_language";

/** What `GET /api/language-suggestion` answers: the suggestion's words already in the suggested language. */
export interface LanguageSuggestion {
  locale: string;
  tag: string;
  dir: "ltr" | "rtl";
  /** The same page in the suggested language. */
  href: string;
  label: string;
  text: string;
  switchLabel: string;
  dismissLabel: string;
}

export function rememberLanguageChoice(choice: string) {
  // A year, site-wide; Lax, so following a link into the shop still carries it.
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Safari before 18.4 and older Firefox.
  document.cookie = `${LANGUAGE_CHOICE_COOKIE}=${encodeURIComponent(choice)}; path=/; max-age=31536000; samesite=lax`;
}
