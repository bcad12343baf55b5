import { DEFAULT_LOCALE, LOCALE_CODES, localizedPath } from "~/features/i18n/locales";
import { getEnv } from "~/platform/env.server";

/** Pages that are one buyer's own (a purchase, a checkout), and the staff console, in every language. */
const PRIVATE_PAGES = ["/purchase/", "/demo-checkout/", "/admin"];

export function loader() {
  const base = getEnv().PUBLIC_URL.replace(/\/$/, "");
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /api/",
    ...PRIVATE_PAGES.map((path) => `Disallow: ${path}`),
    ...LOCALE_CODES.filter((locale) => locale !== DEFAULT_LOCALE).flatMap((locale) =>
      PRIVATE_PAGES.map((path) => `Disallow: ${localizedPath(path, locale)}`),
    ),
    `Sitemap: ${base}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
