import type { CachePolicy } from "~/lib/route-cache";

/**
 * The legal pages the shop serves: each becomes a route (`/terms`), a sitemap entry and a required entry in
 * content/site.json `legal` (title, date) with its Markdown in `content/<file>`.
 */
export const LEGAL_PAGES = [
  {
    slug: "terms",
    file: "legal/terms.md",
    description: "The terms that apply when you buy and use Kestrel Software licences.",
  },
  {
    slug: "privacy",
    file: "legal/privacy.md",
    description: "What personal data Kestrel Software collects, why, and your rights.",
  },
  {
    slug: "refund",
    file: "legal/refund.md",
    description: "When Kestrel Software refunds a purchase: the 24-hour window, evidence and processing times.",
  },
  { slug: "dmca", file: "legal/dmca.md", description: "How to report copyright infringement to Kestrel Software." },
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
