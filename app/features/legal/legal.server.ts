import { Marked } from "marked";
import { getContent } from "~/features/content/content.server";
import { type AnyLocale, DEFAULT_LOCALE, localizedPath } from "~/features/i18n/locales";
import type { LegalSlug } from "./legal-pages";

export interface LegalPageView {
  slug: LegalSlug;
  title: string;
  lastUpdated: string;
  /** HTML rendered from the shop's own Markdown in content/legal (trusted operator copy, not user input). */
  html: string;
}

/** Markdown to HTML; links to the shop's own pages (`/terms`) stay in `locale` (`/de/terms`). */
function markdownIn(locale: AnyLocale): Marked {
  return new Marked({
    gfm: true,
    breaks: false,
    walkTokens(token) {
      if (token.type === "link") token.href = localizedPath(token.href, locale);
    },
  });
}

const rendered = new Map<string, { view: LegalPageView; source: string }>();

/** Renders a legal page once per process, language and text (a publish in the console changes the text). */
export function getLegalPage(slug: LegalSlug, locale: AnyLocale = DEFAULT_LOCALE): LegalPageView | undefined {
  const key = `${locale}:${slug}`;
  const { site, legal } = getContent(locale);
  const entry = site.legal.find((page) => page.slug === slug);
  const source = legal[slug];
  if (!entry || source === undefined) return undefined;
  const cached = rendered.get(key);
  // The same page as long as its text, title and date are the same: rendered once, not on every request.
  if (cached?.source === source && cached.view.title === entry.title && cached.view.lastUpdated === entry.lastUpdated)
    return cached.view;
  const view = {
    slug,
    title: entry.title,
    lastUpdated: entry.lastUpdated,
    html: markdownIn(locale).parse(source, { async: false }),
  };
  rendered.set(key, { view, source });
  return view;
}
