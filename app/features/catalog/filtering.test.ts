import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadContent } from "~/features/content/content.server";
import { EMPTY_FILTERS, filterProducts, filtersToSearch, hasActiveFilters, parseFilters, serializeFilters } from "./filtering";

const { products } = loadContent(path.resolve(import.meta.dirname, "../../../content"));
const names = (filters: Parameters<typeof filterProducts>[1]) => filterProducts(products, filters).map((p) => p.name);
const query = (search: string, known?: string[]) => parseFilters(new URLSearchParams(search), known);

describe("parseFilters", () => {
  it("reads q, repeated categories and both price bounds", () => {
    expect(query("q=studio&category=creator&category=utilities&min=5&max=50")).toEqual({ q: "studio", categories: ["creator", "utilities"], min: 5, max: 50 });
  });
  it("accepts a comma-separated category list, trims, lowercases and de-duplicates it", () => {
    expect(query("category=Creator,%20utilities&category=creator").categories).toEqual(["creator", "utilities"]);
  });
  it("drops categories the catalogue does not know when a list is given", () => {
    expect(query("category=creator,bogus", ["creator", "utilities"]).categories).toEqual(["creator"]);
  });
  it("ignores empty and invalid prices", () => {
    expect(query("min=&max=abc")).toMatchObject({ min: null, max: null });
    expect(query("min=-3&max=1e3")).toMatchObject({ min: null, max: null });
    expect(query("min=0&max=4.99")).toMatchObject({ min: 0, max: 4.99 });
  });
  it("trims the search text and treats whitespace as no search", () => {
    expect(query("q=%20%20Vault%20").q).toBe("Vault");
    expect(query("q=%20%20").q).toBe("");
  });
  it("returns empty filters for an empty query", () => {
    expect(query("")).toEqual(EMPTY_FILTERS);
    expect(hasActiveFilters(query(""))).toBe(false);
  });
});

describe("serializeFilters", () => {
  it("leaves out empty values and repeats categories", () => {
    expect(serializeFilters({ q: "cap", categories: ["creator", "utilities"], min: null, max: 10 }).toString()).toBe("q=cap&category=creator&category=utilities&max=10");
    expect(filtersToSearch(EMPTY_FILTERS)).toBe("");
  });
  it("round-trips through parseFilters", () => {
    const filters = { q: "kestrel capture", categories: ["creator"], min: 0.25, max: 39.99 };
    expect(parseFilters(serializeFilters(filters))).toEqual(filters);
  });
});

describe("filterProducts", () => {
  it("returns the whole catalogue when nothing is filtered", () => {
    expect(names(EMPTY_FILTERS)).toHaveLength(6);
  });
  it("searches names case-insensitively by substring", () => {
    expect(names({ ...EMPTY_FILTERS, q: "STUDIO" })).toEqual(["Kestrel Studio"]);
    expect(names({ ...EMPTY_FILTERS, q: "capture" })).toEqual(["Kestrel Capture", "Kestrel Capture Ultimate"]);
    expect(names({ ...EMPTY_FILTERS, q: "pack" })).toEqual(["Preset Packs"]);
  });
  it("keeps products whose category is selected", () => {
    expect(names({ ...EMPTY_FILTERS, categories: ["utilities"] })).toEqual(["Kestrel Vault", "Kestrel Sandbox"]);
    expect(names({ ...EMPTY_FILTERS, categories: ["utilities", "creator"] })).toHaveLength(6);
  });
  it("applies min and max inclusively to the base price", () => {
    expect(names({ ...EMPTY_FILTERS, min: 14.99 })).toEqual(["Kestrel Vault", "Kestrel Studio"]);
    expect(names({ ...EMPTY_FILTERS, max: 4.99 })).toEqual(["Kestrel Capture", "Kestrel Capture Ultimate", "Preset Packs"]);
    expect(names({ ...EMPTY_FILTERS, min: 4.99, max: 6.99 })).toEqual(["Kestrel Sandbox", "Kestrel Capture", "Kestrel Capture Ultimate"]);
  });
  it("compares base prices, not the price of longer durations", () => {
    // Studio Lifetime costs 299.93 but its base price is 39.99.
    expect(names({ ...EMPTY_FILTERS, min: 100 })).toEqual([]);
  });
  it("combines search, category and price", () => {
    expect(names({ q: "kestrel", categories: ["creator"], min: 5, max: null })).toEqual(["Kestrel Studio"]);
  });
  it("finds nothing when nothing matches", () => {
    expect(names({ ...EMPTY_FILTERS, q: "does-not-exist" })).toEqual([]);
  });
});
