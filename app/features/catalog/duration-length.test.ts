import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { siteSchema } from "~/features/layout/site.content";
import { parseContent } from "~/features/content/content";
import { productsFileSchema } from "./catalog.content";
import { daysFromVariantName, shopDurationDays } from "./duration-length";
import { productsFromShop } from "./shop-catalogue.server";
import type { ShopProduct } from "./sources/sellauth.server";

describe("a connected shop's duration length from the variant's name", () => {
  it.each([
    ["1 Day", 1],
    ["7 Days", 7],
    ["1 Week", 7],
    ["Monthly", 30],
    ["Lifetime", 0],
    ["1 DAY", 1],
    ["7 days", 7],
    ["1 week", 7],
    ["MONTHLY", 30],
    ["lifetime", 0],
    ["1 Day (One-time)", 1],
    ["3 Months", 90],
    ["1 Year", 365],
    ["Weekly key", 7],
  ])('reads "%s" as %i days (0: lifetime)', (name, days) => {
    expect(daysFromVariantName(name)).toBe(days);
  });

  it.each(["Standard", "Custom", "Pro edition", ""])('tells no length from "%s" and guesses none', (name) => {
    expect(daysFromVariantName(name)).toBeUndefined();
    expect(shopDurationDays(name, undefined)).toBeNull();
  });

  it("takes the overlay's days for the variant over the name, and the name when the overlay gives none", () => {
    expect(shopDurationDays("1 Week", 14)).toBe(14);
    expect(shopDurationDays("Standard", 0)).toBe(0);
    expect(shopDurationDays("1 Week", undefined)).toBe(7);
  });
});

describe("durations of a shop product on the storefront", () => {
  const site = siteSchema.parse(JSON.parse(fs.readFileSync(path.resolve("content/site.json"), "utf8")));
  const shop: ShopProduct = {
    id: 1,
    name: "Product 1",
    path: "product-1",
    description: "<p>From the shop.</p>",
    currency: "USD",
    visibility: "public",
    groupId: null,
    sold: 0,
    variants: [
      { id: 10, name: "1 Week", description: null, priceCents: 999, stock: null },
      { id: 11, name: "Gold", description: null, priceCents: 1999, stock: null },
      { id: 12, name: "Monthly", description: null, priceCents: 2999, stock: null },
    ],
    images: [],
  };
  const snapshot = {
    syncedAt: "2026-11-27T09:00:00.000Z",
    settings: {
      name: null,
      subdomain: null,
      averageRating: null,
      totalFeedbacks: null,
      hideAutomaticFeedbacks: false,
      hideStockCounts: false,
    },
    groups: [],
    products: [shop],
    feedbacks: [],
    skipped: [],
  };

  it("carry the name's length, null when it cannot be told, and the overlay's correction by variant id", () => {
    const overlay = [{ id: 1, durations: [{ value: "x", label: "x", multiplier: 1, variantId: 12, days: 31 }] }];
    const [plain] = productsFromShop(snapshot, [], site, { shopUrl: "https://kestrel.mysellauth.com" });
    expect(plain?.durations.map((d) => [d.label, d.days])).toEqual([
      ["1 Week", 7],
      ["Gold", null],
      ["Monthly", 30],
    ]);
    const [corrected] = productsFromShop(snapshot, overlay, site, { shopUrl: "https://kestrel.mysellauth.com" });
    expect(corrected?.durations.map((d) => d.days)).toEqual([7, null, 31]);
  });
});

describe("content durations' days", () => {
  const products = JSON.parse(fs.readFileSync(path.resolve("content/products.json"), "utf8")) as Array<{
    durations: Array<Record<string, unknown>>;
  }>;
  const parse = (data: unknown) => () => parseContent("content/products.json", productsFileSchema, data);

  it("the demo catalogue gives every timed duration its days and none to lifetime", () => {
    const days = products.flatMap((p) => p.durations.map((d) => [d.value, d.days]));
    for (const [value, n] of days) {
      if (value === "lifetime" || value === "standard" || value === "custom") expect(n).toBeUndefined();
      else expect(n).toBe({ "1-day": 1, "3-days": 3, "1-week": 7, "1-month": 30 }[value as string]);
    }
  });

  it("refuses days that are negative or not whole", () => {
    const broken = structuredClone(products);
    broken[0]!.durations[0]!.days = -1;
    expect(parse(broken)).toThrow(
      "content/products.json: [0].durations[0].days: expected a number of days (0 for lifetime)",
    );
    broken[0]!.durations[0]!.days = 1.5;
    expect(parse(broken)).toThrow("content/products.json: [0].durations[0].days: expected a whole number of days");
  });
});
