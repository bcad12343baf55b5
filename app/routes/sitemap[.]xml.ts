import { getCatalogue } from "~/features/catalog/catalogue.server";
import { LEGAL_PAGES } from "~/features/legal/legal-pages";
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

export function loader() {
  const base = getEnv().PUBLIC_URL.replace(/\/$/, "");
  const paths = [
    ...SITEMAP_STATIC_PATHS,
    ...getCatalogue()
      .all()
      .map((p) => `/product/${p.id}`),
  ];
  const urls = paths.map((p) => `  <url><loc>${base}${p}</loc></url>`).join("\n");
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
