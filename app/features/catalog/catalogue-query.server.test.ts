import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadContent, loadLocalizedContent } from "~/features/content/content.server";
import { generateProducts } from "../../../scripts/lib/generate-catalogue.mjs";
import { productsFileSchema } from "./catalog.content";
import { type CatalogueQuery, createCatalogue } from "./catalogue-query.server";

const content = loadContent(path.resolve(import.meta.dirname, "../../../content"));
const demo = createCatalogue(content.products, content.site.categories);
const names = (query: CatalogueQuery) => demo.query(query).items.map((p) => p.name);
const large = createCatalogue(productsFileSchema.parse(generateProducts(1_000)), content.site.categories);

describe("queryCatalogue over the demo catalogue", () => {
  it("lists featured products first, then the rest in the content's order", () => {
    expect(names({})).toEqual([
      "Kestrel Sandbox",
      "Kestrel Studio",
      "Kestrel Capture Ultimate",
      "Preset Packs",
      "Kestrel Vault",
      "Kestrel Capture",
    ]);
  });
  it("searches name, description, features and category label, case- and accent-insensitively", () => {
    // Preset Packs names Kestrel Studio in its description; the name match ranks first.
    expect(names({ q: "STUDIO" })).toEqual(["Kestrel Studio", "Preset Packs"]);
    expect(names({ q: "stúdiö" })).toEqual(["Kestrel Studio", "Preset Packs"]);
    expect(names({ q: "shredding" })).toEqual(["Kestrel Vault"]);
    expect(names({ q: "creator tools" }).length).toBeGreaterThanOrEqual(4);
  });
  it("matches the word being typed as a prefix", () => {
    expect(names({ q: "stu" })).toEqual(["Kestrel Studio", "Preset Packs"]);
    expect(names({ q: "pack" })).toEqual(["Preset Packs"]);
  });
  it("forgives one typo in a word of five or more letters, a swap of two letters included", () => {
    expect(names({ q: "vualt" })[0]).toBe("Kestrel Vault");
    expect(names({ q: "studoi" })[0]).toBe("Kestrel Studio");
    expect(names({ q: "captrue" })).toContain("Kestrel Capture");
    expect(names({ q: "studxo" })[0]).toBe("Kestrel Studio");
    // Two typos, or one in a short word, find nothing.
    expect(names({ q: "vuxlt" })).toEqual([]);
    expect(names({ q: "vlt" })).toEqual([]);
  });
  it("ranks name matches first", () => {
    expect(names({ q: "capture" }).slice(0, 2).sort()).toEqual(["Kestrel Capture", "Kestrel Capture Ultimate"]);
  });
  it("finds nothing when nothing matches", () => {
    expect(names({ q: "does-not-exist" })).toEqual([]);
    expect(names({ q: "zzzz" })).toEqual([]);
  });
  it("combines search, category and price", () => {
    expect(names({ q: "kestrel", categories: ["creator"], min: 5 })).toEqual(["Kestrel Studio"]);
    expect(names({ min: 4.99, max: 6.99, sort: "price-asc" })).toEqual([
      "Kestrel Capture Ultimate",
      "Kestrel Capture",
      "Kestrel Sandbox",
    ]);
  });
  it("applies min and max inclusively to the base price, not the price of longer durations", () => {
    expect(names({ min: 14.99 })).toEqual(["Kestrel Studio", "Kestrel Vault"]);
    expect(names({ max: 4.99 })).toEqual(["Kestrel Capture Ultimate", "Preset Packs", "Kestrel Capture"]);
    // Studio Lifetime costs 299.93 but its base price is 39.99.
    expect(names({ min: 100 })).toEqual([]);
  });
  it("counts each category for the current search and prices, whatever categories are chosen", () => {
    expect(demo.query({ categories: ["utilities"] }).facets).toEqual([
      { value: "utilities", label: "Utilities", count: 2 },
      { value: "creator", label: "Creator Tools", count: 4 },
    ]);
    expect(demo.query({ q: "studio" }).facets.map((f) => f.count)).toEqual([0, 2]);
    expect(demo.query({ q: "studio", max: 5 }).facets.map((f) => f.count)).toEqual([0, 1]);
  });
  it("offers a filter only for categories that have products", () => {
    expect(demo.query({}).facets.map((c) => c.label)).toEqual(["Utilities", "Creator Tools"]);
    const creatorOnly = createCatalogue(
      content.products.filter((p) => p.category === "creator"),
      content.site.categories,
    );
    expect(creatorOnly.query({}).facets.map((c) => c.value)).toEqual(["creator"]);
  });
  it("sorts by price both ways, by name and by newest", () => {
    expect(names({ sort: "price-asc" })).toEqual([
      "Preset Packs",
      "Kestrel Capture Ultimate",
      "Kestrel Capture",
      "Kestrel Sandbox",
      "Kestrel Vault",
      "Kestrel Studio",
    ]);
    expect(names({ sort: "price-desc" })[0]).toBe("Kestrel Studio");
    expect(names({ sort: "name" })).toEqual([
      "Kestrel Capture",
      "Kestrel Capture Ultimate",
      "Kestrel Sandbox",
      "Kestrel Studio",
      "Kestrel Vault",
      "Preset Packs",
    ]);
    expect(names({ sort: "newest" })[0]).toBe("Preset Packs");
  });
  it("relates up to four other products of the same category", () => {
    const studio = demo.product(446894)!;
    expect(demo.related(studio, 4).map((p) => p.name)).toEqual([
      "Kestrel Capture Ultimate",
      "Preset Packs",
      "Kestrel Capture",
    ]);
    expect(demo.related(demo.product(446889)!, 4).map((p) => p.name)).toEqual(["Kestrel Sandbox"]);
  });
});

describe("queryCatalogue over 1,000 products", () => {
  it("pages 24 at a time and counts every match", () => {
    const page = large.query({ page: 2 });
    expect(page.items).toHaveLength(24);
    expect(page).toMatchObject({ total: 1_000, size: 1_000, page: 2, pageCount: 42 });
    expect(large.query({ page: 42 }).items).toHaveLength(1_000 - 41 * 24);
    expect(large.query({ page: 43 }).items).toEqual([]);
  });
  it("sorts a search's matches by price across pages", () => {
    const all = large.query({ q: "vault", sort: "price-asc", pageSize: 1_000 }).items;
    expect(all.length).toBeGreaterThan(100);
    expect(all.every((p) => /vault/i.test(`${p.name} ${p.description}`))).toBe(true);
    const prices = all.map((p) => p.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(large.query({ q: "vault", sort: "price-asc", page: 3 }).items).toEqual(all.slice(48, 72));
  });
});

describe("a catalogue in another language", () => {
  const german = loadLocalizedContent(path.resolve(import.meta.dirname, "../../../content"), "de").content;
  const catalogue = createCatalogue(german.products, german.site.categories, "de");

  it("searches the language's own copy and names its categories in it", () => {
    const result = catalogue.query({ q: "schreddern" });
    expect(result.items.map((p) => p.name)).toEqual(["Kestrel Vault"]);
    expect(result.facets.map((f) => [f.label, f.count])).toEqual([
      ["Dienstprogramme", 1],
      ["Creator-Tools", 0],
    ]);
    expect(names({ q: "schreddern" })).toEqual([]);
  });

  it("holds the same products at the same prices, in the same default order", () => {
    expect(catalogue.query({}).items.map((p) => [p.id, p.price])).toEqual(
      demo.query({}).items.map((p) => [p.id, p.price]),
    );
  });
});
