import type { CachePolicy } from "~/lib/route-cache";

/**
 * The legal pages the shop serves: each becomes a route (`/terms`), a sitemap entry and a required entry in
 * content/site.json `legal` (title, date) with its Markdown in `content/<file>`; its meta description is a message in
 * legal-descriptions.ts (kept apart: the route config loads this file without Lingui's macros).
 */
export const LEGAL_PAGES = [
  { slug: "terms", file: "legal/terms.md" },
  { slug: "privacy", file: "legal/privacy.md" },
  { slug: "refund", file: "legal/refund.md" },
  { slug: "dmca", file: "legal/dmca.md" },
] as const;

/** Legal copy changes only with a deploy, so shared caches may keep it like the rest of the content. */
export const LEGAL_PAGE_CACHE: CachePolicy = "content";

export type LegalPageDefinition = (typeof LEGAL_PAGES)[number];
export type LegalSlug = LegalPageDefinition["slug"];

export const LEGAL_SLUGS = LEGAL_PAGES.map((page) => page.slug) as [LegalSlug, ...LegalSlug[]];

export function isLegalSlug(value: string): value is LegalSlug {
  return (LEGAL_SLUGS as readonly string[]).includes(value);
}

const PAGES_BY_SLUG = new Map<LegalSlug, LegalPageDefinition>(LEGAL_PAGES.map((page) => [page.slug, page]));

export function legalPage(slug: LegalSlug): LegalPageDefinition {
  return PAGES_BY_SLUG.get(slug)!;
}

/** One route module serves every legal page, so each route needs its own id (`legal-terms`). */
export function legalRouteId(slug: LegalSlug): string {
  return `legal-${slug}`;
}
