import { Marked } from "marked";
import { getContent } from "~/features/content/content.server";
import type { LegalSlug } from "./legal-pages";

export interface LegalPageView {
  slug: LegalSlug;
  title: string;
  lastUpdated: string;
  /** HTML rendered from the shop's own Markdown in content/legal (trusted operator copy, not user input). */
  html: string;
}

const markdown = new Marked({ gfm: true, breaks: false });
const rendered = new Map<LegalSlug, LegalPageView>();

/** Renders a legal page once per process (content only changes with a deploy). */
export function getLegalPage(slug: LegalSlug): LegalPageView | undefined {
  const cached = rendered.get(slug);
  if (cached) return cached;
  const { site, legal } = getContent();
  const entry = site.legal.find((page) => page.slug === slug);
  const source = legal[slug];
  if (!entry || source === undefined) return undefined;
  const view = {
    slug,
    title: entry.title,
    lastUpdated: entry.lastUpdated,
    html: markdown.parse(source, { async: false }),
  };
  rendered.set(slug, view);
  return view;
}
