import fs from "node:fs";
import { expect, test } from "@playwright/test";
import * as cheerio from "cheerio";
import { allPagePaths } from "../support/site-routes";

type Ld = Record<string, unknown> & { "@type": string };
const products = JSON.parse(fs.readFileSync("content/products.json", "utf8")) as Array<{
  id: number;
  durations: unknown[];
}>;
const faq = JSON.parse(fs.readFileSync("content/faq.json", "utf8")) as unknown[];

async function load(request: import("@playwright/test").APIRequestContext, path: string) {
  const $ = cheerio.load(await (await request.get(path)).text());
  const jsonLd = $('script[type="application/ld+json"]')
    .map((_, el) => JSON.parse($(el).text()) as Ld | Ld[])
    .get()
    .flat() as Ld[];
  const meta = (key: string) => $(`meta[property="${key}"], meta[name="${key}"]`).attr("content");
  return { $, jsonLd, meta, canonical: $('link[rel="canonical"]').attr("href") };
}

test("every indexable page names the Organization, has an absolute canonical link and Open Graph/Twitter tags", async ({
  request,
  baseURL,
}) => {
  // Some 110 pages read one after another: more than 30 s on a 2-core machine under load.
  test.setTimeout(90_000);
  for (const path of allPagePaths().filter((p) => !p.endsWith("/this-page-does-not-exist"))) {
    const { jsonLd, meta, canonical } = await load(request, path);
    expect(
      jsonLd.some((d) => d["@type"] === "Organization"),
      path,
    ).toBe(true);
    // Absolute; a page may canonicalise its default view with a query (e.g. /docs?product=…).
    expect(canonical?.split("?")[0], path).toBe(`${baseURL}${path}`);
    expect(meta("og:title"), path).toBeTruthy();
    expect(meta("og:url"), path).toBe(canonical);
    expect(meta("twitter:card"), path).toBeTruthy();
  }
});

test("product pages describe the Product with one USD Offer per duration, a breadcrumb trail and their own image", async ({
  request,
  baseURL,
}) => {
  const images = new Set<string>();
  for (const product of products) {
    const { jsonLd, meta } = await load(request, `/product/${product.id}`);
    const ld = jsonLd.find((d) => d["@type"] === "Product");
    expect(ld, `product ${product.id}`).toBeTruthy();
    const offers = ld?.offers as Array<Record<string, string>>;
    expect(offers).toHaveLength(product.durations.length);
    for (const offer of offers) {
      expect(offer.priceCurrency).toBe("USD");
      expect(offer.price).toMatch(/^\d+\.\d{2}$/);
      expect(offer.availability).toMatch(/^https:\/\/schema\.org\/(InStock|OutOfStock)$/);
    }
    const crumbs = jsonLd.find((d) => d["@type"] === "BreadcrumbList")?.itemListElement as Array<{
      position: number;
      item: string;
    }>;
    expect(crumbs.map((c) => c.position)).toEqual(crumbs.map((_, i) => i + 1));
    expect(crumbs.at(-1)?.item).toBe(`${baseURL}/product/${product.id}`);
    const image = meta("og:image") ?? "";
    expect(image.startsWith(`${baseURL}/`)).toBe(true);
    expect(meta("twitter:image")).toBe(image);
    images.add(image);
  }
  expect(images.size).toBe(products.length);
});

test("Kestrel Studio's Lifetime offer is priced 299.93 (39.99 × 7.5, rounded half-up)", async ({ request }) => {
  const { jsonLd } = await load(request, "/product/446894");
  const offers = jsonLd.find((d) => d["@type"] === "Product")?.offers as Array<Record<string, string>>;
  expect(offers.find((o) => o.name === "Lifetime")?.price).toBe("299.93");
});

test("/faq carries an FAQPage with every question and its answer", async ({ request }) => {
  const { jsonLd } = await load(request, "/faq");
  const page = jsonLd.find((d) => d["@type"] === "FAQPage");
  expect(page?.mainEntity as unknown[] | undefined).toHaveLength(faq.length);
});
