import { useEffect, useState } from "react";
import { type LanguageSuggestion, LANGUAGE_CHOICE_COOKIE, rememberLanguageChoice } from "./language-suggestion";

/**
 * On a first visit, offers the page in the language the browser prefers, worded in that language. It asks the server
 * once the page is running (so the page itself stays the same for everyone) and floats over the page's corner (so
 * nothing moves when it appears); a choice or a dismissal is remembered and it never shows again.
 */
export function LanguageSuggestionBanner() {
  const [suggestion, setSuggestion] = useState<LanguageSuggestion | null>(null);
  useEffect(() => {
    if (document.cookie.split(/;\s*/).some((c) => c.startsWith(`${LANGUAGE_CHOICE_COOKIE}=`))) return;
    const controller = new AbortController();
    const path = window.location.pathname + window.location.search;
    fetch(`/api/language-suggestion?path=${encodeURIComponent(path)}`, { signal: controller.signal })
      .then((response) => (response.ok ? response.json() : null))
      .then((body: { suggestion?: LanguageSuggestion | null } | null) => setSuggestion(body?.suggestion ?? null))
      // Only an offer: if it cannot be asked, the page goes on without it.
      .catch(() => {});
    return () => controller.abort();
  }, []);
  if (!suggestion) return null;
  return (
    <aside
      lang={suggestion.tag}
      dir={suggestion.dir}
      aria-label={suggestion.label}
      className="fixed start-4 bottom-4 z-40 max-w-sm rounded-xl border border-border-strong bg-surface p-4 text-sm text-foreground shadow-xl"
    >
      <p>{suggestion.text}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <a
          href={suggestion.href}
          hrefLang={suggestion.tag}
          onClick={() => rememberLanguageChoice(suggestion.locale)}
          className="rounded-lg bg-accent px-3 py-2 font-semibold text-on-accent hover:bg-accent-hover"
        >
          {suggestion.switchLabel}
        </a>
        <button
          type="button"
          onClick={() => {
            rememberLanguageChoice("dismissed");
            setSuggestion(null);
          }}
          className="rounded-lg border border-border-strong px-3 py-2 hover:bg-raised"
        >
          {suggestion.dismissLabel}
        </button>
      </div>
    </aside>
  );
}
