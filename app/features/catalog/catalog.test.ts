import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadContent } from "~/features/content/content.server";
import {
  canPurchase,
  durationFromSearch,
  homeTileProducts,
  onlySelectionChanged,
  parseProductId,
  productPath,
  quantityFromSearch,
} from "./catalog";

const { site, products } = loadContent(path.resolve(import.meta.dirname, "../../../content"));
const studio = products.find((p) => p.slug === "studio")!;

describe("product URLs", () => {
  it("links a product by its id", () => {
    expect(productPath(studio)).toBe("/product/446894");
  });
  it("accepts only digit ids", () => {
    expect(parseProductId("446894")).toBe(446894);
    for (const bad of [undefined, "", "abc", "1e3", "-1", " 7", "44689.4", "0x10"])
      expect(parseProductId(bad)).toBeNull();
  });
});

describe("durationFromSearch", () => {
  it("starts at the first duration", () => {
    expect(durationFromSearch(studio, new URLSearchParams()).label).toBe("1 Week");
  });
  it("selects the duration named in ?duration=", () => {
    expect(durationFromSearch(studio, new URLSearchParams("duration=lifetime")).label).toBe("Lifetime");
  });
  it("falls back to the first duration for an unknown value", () => {
    expect(durationFromSearch(studio, new URLSearchParams("duration=forever")).label).toBe("1 Week");
  });
});

describe("quantityFromSearch", () => {
  it("reads a whole number within 1 … maxQuantity and falls back to 1 or the nearest bound", () => {
    const q = (search: string) => quantityFromSearch({ maxQuantity: 5 }, new URLSearchParams(search));
    expect(q("quantity=3")).toBe(3);
    expect(q("")).toBe(1);
    expect(q("quantity=abc")).toBe(1);
    expect(q("quantity=0")).toBe(1);
    expect(q("quantity=9")).toBe(5);
    expect(quantityFromSearch({ maxQuantity: 1 }, new URLSearchParams("quantity=3"))).toBe(1);
  });
});

describe("onlySelectionChanged", () => {
  const url = (path: string) => new URL(path, "http://shop.test");
  it("is true when only ?duration= changed", () => {
    expect(onlySelectionChanged(url("/product/1"), url("/product/1?duration=lifetime"))).toBe(true);
    expect(onlySelectionChanged(url("/product/1?duration=1-week"), url("/product/1?duration=lifetime"))).toBe(true);
    expect(onlySelectionChanged(url("/product/1?duration=1-week"), url("/product/1?duration=1-week&quantity=3"))).toBe(
      true,
    );
  });
  it("is false for the same URL (an explicit revalidation), another product or other parameters", () => {
    expect(onlySelectionChanged(url("/product/1?duration=lifetime"), url("/product/1?duration=lifetime"))).toBe(false);
    expect(onlySelectionChanged(url("/product/1"), url("/product/2?duration=lifetime"))).toBe(false);
    expect(onlySelectionChanged(url("/product/1"), url("/product/1?duration=lifetime&ref=mail"))).toBe(false);
  });
});

describe("canPurchase", () => {
  it("needs a variant id and a shop link", () => {
    expect(canPurchase({ shopUrl: "https://shop.example/p" }, { variantId: 1 })).toBe(true);
    expect(canPurchase({ shopUrl: "https://shop.example/p" }, { variantId: null })).toBe(false);
    expect(canPurchase({ shopUrl: null }, { variantId: 1 })).toBe(false);
  });
  it("allows every duration of the demo catalogue", () => {
    for (const product of products)
      for (const duration of product.durations) expect(canPurchase(product, duration)).toBe(true);
  });
});

describe("catalogue categories and home tiles", () => {
  it("shows the four home tiles in the site's order", () => {
    expect(
      homeTileProducts(site.homeTiles, { product: (id) => products.find((p) => p.id === id) }).map((p) => [
        p.name,
        productPath(p),
      ]),
    ).toEqual([
      ["Kestrel Sandbox", "/product/446891"],
      ["Kestrel Capture Ultimate", "/product/447089"],
      ["Kestrel Studio", "/product/446894"],
      ["Preset Packs", "/product/447097"],
    ]);
  });
});
