import { msg } from "@lingui/core/macro";
import type { MetaDescriptor } from "react-router";
import { type AnyLocale, DEFAULT_LOCALE, localeOfPath } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
import type { LayoutData } from "./layout";

export interface PageMetaInput {
  /** The page's own name; " | <brand>" is appended unless `appendBrand` is false (the home page names the brand itself). */
  title: string;
  description: string;
  /**
   * Path (and query, when the page canonicalises a view) of the canonical URL in the page's language, e.g. "/faq" or
   * "/de/faq" (`localizedPath`): the title's " | <brand>" is written the way that language writes it.
   */
  path: string;
  /** Image for Open Graph and Twitter cards: site-relative, or absolute (a connected shop's own product image). */
  image?: string;
  /** Pages search engines should not list: a missing product, the purchase success page, the demo checkout. */
  noindex?: boolean;
  appendBrand?: boolean;
}

/** The root loader's data as a route's `meta` receives it in `matches[0].loaderData` (absent when the root failed). */
export type RootMetaData =
  | { layout: Pick<LayoutData, "brand" | "publicUrl"> & Partial<Pick<LayoutData, "theme">> }
  | undefined;

/**
 * Every page's head tags: title, description, an absolute canonical link, Open Graph and Twitter cards. The canonical
 * is a `tagName: "link"` descriptor, because React Router renders any other descriptor with `rel` as a <meta>.
 */
export function pageMeta(
  root: RootMetaData,
  { title, description, path, image, noindex = false, appendBrand = true }: PageMetaInput,
): MetaDescriptor[] {
  const brand = root?.layout.brand ?? "Kestrel Software";
  const publicUrl = root?.layout.publicUrl ?? "";
  const fullTitle = appendBrand ? titleWithBrand(title, brand, localeOfPath(path)) : title;
  const url = `${publicUrl}${path}`;
  const tags: MetaDescriptor[] = [
    { title: fullTitle },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:type", content: "website" },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: fullTitle },
    { name: "twitter:description", content: description },
  ];
  // A page without a picture of its own is shared with the shop's logo, when the theme has one.
  const logo = root?.layout.theme?.logo;
  const shared = image ?? logo?.src;
  if (shared) {
    // A connected shop's product images live on its image host: their address is already absolute.
    const imageUrl = /^https?:\/\//.test(shared) ? shared : `${publicUrl}${shared}`;
    tags.push({ property: "og:image", content: imageUrl }, { name: "twitter:image", content: imageUrl });
  }
  if (!image && logo) tags.push({ property: "og:image:alt", content: logo.alt });
  if (noindex) tags.push({ name: "robots", content: "noindex" });
  return tags;
}

/** "FAQ | Kestrel Software" in `locale`; English is the message's own source text, so it needs no catalogue. */
function titleWithBrand(title: string, brand: string, locale: AnyLocale): string {
  if (locale === DEFAULT_LOCALE) return `${title} | ${brand}`;
  return translatorFor(locale)._(
    msg({
      message: `${title} | ${brand}`,
      comment: "A page's <title>: the page's own name, then the shop's name",
    }),
  );
}
