import { describe, expect, it } from "vitest";
import {
  catalogSearch,
  EMPTY_FILTERS,
  filtersToSearch,
  hasActiveFilters,
  parseCatalogView,
  parseFilters,
  serializeFilters,
} from "./filtering";

const query = (search: string, known?: string[]) => parseFilters(new URLSearchParams(search), known);

describe("parseFilters", () => {
  it("reads q, repeated categories and both price bounds", () => {
    expect(query("q=studio&category=creator&category=utilities&min=5&max=50")).toEqual({
      q: "studio",
      categories: ["creator", "utilities"],
      min: 5,
      max: 50,
    });
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
    expect(serializeFilters({ q: "cap", categories: ["creator", "utilities"], min: null, max: 10 }).toString()).toBe(
      "q=cap&category=creator&category=utilities&max=10",
    );
    expect(filtersToSearch(EMPTY_FILTERS)).toBe("");
  });
  it("round-trips through parseFilters", () => {
    const filters = { q: "kestrel capture", categories: ["creator"], min: 0.25, max: 39.99 };
    expect(parseFilters(serializeFilters(filters))).toEqual(filters);
  });
});

describe("parseCatalogView and catalogSearch", () => {
  const view = (search: string) => parseCatalogView(new URLSearchParams(search), ["creator", "utilities"]);
  it("reads the sort and the page", () => {
    expect(view("sort=price-asc&page=3")).toMatchObject({ sort: "price-asc", page: 3 });
  });
  it("reads an unknown sort as the default and a malformed page as page 1", () => {
    for (const page of ["-1", "0", "abc", "1.5", "2e3", ""]) expect(view(`page=${page}`).page).toBe(1);
    expect(view("sort=<script>").sort).toBe("featured");
  });
  it("reads a page number too large to count as a page past any catalogue", () => {
    expect(view("page=99999999999").page).toBe(99_999_999_999);
    expect(view(`page=${"9".repeat(30)}`).page).toBe(Number.MAX_SAFE_INTEGER);
  });
  it("writes the clean URL: filters, a sort other than the default, a page after the first", () => {
    expect(catalogSearch(view("page=2&sort=name&q=cap&category=bogus"))).toBe("?q=cap&sort=name&page=2");
    expect(catalogSearch(view("page=1&sort=featured"))).toBe("");
    expect(catalogSearch(view("page=-1&sort=<script>"))).toBe("");
  });
});
