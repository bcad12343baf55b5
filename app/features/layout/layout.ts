import type { BrandData } from "~/features/theme/theme.server";
import type { Site } from "./site.content";

/** What every page's chrome needs, sent once from the root loader. */
export interface LayoutData {
  brand: string;
  badge: string;
  nav: Site["nav"];
  community: Site["community"];
  categories: Site["categories"];
  legal: Array<{ slug: string; title: string }>;
  year: number;
  publicUrl: string;
  description: string;
  /** The theme's colour for the browser's chrome and its logo, when it has one (content/theme.json). */
  theme: BrandData;
  /** The recent-sales notice is on (content/site.json `recentSales`). */
  recentSales?: true;
}

export function toLayoutData(site: Site, publicUrl: string, theme: BrandData, now = new Date()): LayoutData {
  return {
    brand: site.brand,
    badge: site.badge,
    nav: site.nav,
    community: site.community,
    categories: site.categories,
    legal: site.legal.map(({ slug, title }) => ({ slug, title })),
    year: now.getFullYear(),
    publicUrl: publicUrl.replace(/\/$/, ""),
    description: site.description,
    theme,
    // Sent only when on: a shop without the notice pays no byte for it.
    ...(site.recentSales ? { recentSales: true as const } : {}),
  };
}

/** The id a bare page (one without the site's chrome, e.g. the demo checkout) gives its heading: it names its main. */
export const BARE_PAGE_HEADING_ID = "page-heading";
