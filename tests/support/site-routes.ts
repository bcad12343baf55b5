import fs from "node:fs";
import path from "node:path";
import { LOCALE_CODES, localizedPath } from "../../app/features/i18n/locales";

const root = path.resolve(import.meta.dirname, "../..");

/** Every page a visitor can reach in every language (the sitemap's pages, the success page and a 404), for sweeps. */
export function allPagePaths(): string[] {
  return LOCALE_CODES.flatMap((locale) => englishPagePaths().map((page) => localizedPath(page, locale)));
}

/** Every page a visitor can reach in English. */
export function englishPagePaths(): string[] {
  const products = JSON.parse(fs.readFileSync(path.join(root, "content/products.json"), "utf8")) as Array<{
    id: number;
  }>;
  return [
    "/",
    "/products",
    ...products.map((p) => `/product/${p.id}`),
    "/status",
    // The demo history's first incident (content/status-history.demo.json), and the feed's HTML neighbour.
    "/status/incidents/1",
    "/reviews",
    "/reseller",
    "/faq",
    "/docs",
    "/downloads",
    "/terms",
    "/privacy",
    "/refund",
    "/dmca",
    "/purchase/success",
    // Signed out: the address form (the signed-in list and the code form are covered by tests/e2e/buyer-orders.spec.ts).
    "/orders",
    // Without a conversation cookie: the helpful 404 (the conversation itself: tests/e2e/support-conversation.spec.ts).
    "/support/conversation",
    "/this-page-does-not-exist",
  ];
}

/** The paths listed in /sitemap.xml (to prove allPagePaths() has not drifted from it). */
export async function sitemapPaths(baseUrl: string): Promise<string[]> {
  const xml = await (await fetch(new URL("/sitemap.xml", baseUrl))).text();
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? "/").pathname);
}
