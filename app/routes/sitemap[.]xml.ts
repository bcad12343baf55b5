import { getCatalogue } from "~/features/catalog/catalogue.server";
import { LOCALE_CODES, languageAlternates, localizedPath } from "~/features/i18n/locales";
import { LEGAL_PAGES } from "~/features/legal/legal-pages";
import { escapeMarkup } from "~/lib/escape-markup";
import { getEnv } from "~/platform/env.server";

const SITEMAP_STATIC_PATHS = [
  "/",
  "/products",
  "/status",
  "/reviews",
  "/reseller",
  "/faq",
  "/docs",
  "/downloads",
  ...LEGAL_PAGES.map((page) => `/${page.slug}`),
];

/** Every page in every language, each listing all its languages (and English as x-default), as search engines ask. */
export function loader() {
  const base = getEnv().PUBLIC_URL.replace(/\/$/, "");
  const paths = [
    ...SITEMAP_STATIC_PATHS,
    ...getCatalogue()
      .all()
      .map((p) => `/product/${p.id}`),
  ];
  const alternatesOf = (path: string) =>
    languageAlternates(path)
      .map((alt) => `<xhtml:link rel="alternate" hreflang="${alt.hrefLang}" href="${escapeMarkup(base + alt.path)}"/>`)
      .join("");
  const urls = paths.flatMap((path) => {
    const alternates = alternatesOf(path);
    return LOCALE_CODES.map(
      (locale) => `  <url><loc>${escapeMarkup(base + localizedPath(path, locale))}</loc>${alternates}</url>`,
    );
  });
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join("\n")}\n</urlset>\n`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
