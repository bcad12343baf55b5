import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadContent } from "~/features/content/content.server";
import type { Product } from "./catalog.content";
import {
  basePriceCents,
  computeTotal,
  findDuration,
  formatCents,
  formatUsd,
  nextVolumeTier,
  percentOfCents,
  priceCents,
  priceLine,
  volumeTierFor,
} from "./pricing";

describe("priceCents", () => {
  it("rounds half-up in exact decimal arithmetic (39.99 × 7.5 = 299.925 → 299.93)", () => {
    expect(formatCents(priceCents(39.99, 7.5))).toBe("299.93");
  });
  it("shows Vault Lifetime as 29.99 and Sandbox 1 Week as 11.99", () => {
    expect(formatCents(priceCents(14.99, 2.000667))).toBe("29.99");
    expect(formatCents(priceCents(6.99, 1.7153))).toBe("11.99");
  });
  it("rounds a half cent up but a value just below it down", () => {
    expect(priceCents(0.125, 1)).toBe(13);
    expect(priceCents(0.1249, 1)).toBe(12);
  });
  it("multiplies by quantity before rounding", () => {
    expect(priceCents(39.99, 7.5, 2)).toBe(59985);
  });
});

// Expected prices worked out by hand: base × multiplier, rounded half-up to the cent.
const expectedPrices: Record<string, Record<string, string>> = {
  "Kestrel Vault": { "1-day": "14.99", lifetime: "29.99" }, // 14.99 × 2.000667 = 29.989998
  "Kestrel Sandbox": { "3-days": "6.99", "1-week": "11.99", "1-month": "27.99", lifetime: "59.99" }, // 11.989947, 27.9899871, 59.98818
  "Kestrel Capture": { "1-day": "4.99", "3-days": "9.99", "1-week": "19.99", "1-month": "44.99", lifetime: "99.99" }, // 9.98999996, 19.98994, 44.98984, 99.98962
  "Kestrel Studio": { "1-week": "39.99", "1-month": "89.99", lifetime: "299.93" }, // 89.989497, 299.925
  "Kestrel Capture Ultimate": {
    "1-day": "4.99",
    "3-days": "8.98",
    "1-week": "16.99",
    "1-month": "29.99",
    lifetime: "89.97",
  }, // 8.982, 16.99095, 29.9899, 89.9697
  "Preset Packs": { standard: "0.25", custom: "0.50" },
};

describe("computeTotal for every duration of every demo product", () => {
  const { products } = loadContent(path.resolve(import.meta.dirname, "../../../content"));

  it("multiplies the unit price by the quantity before rounding: 3 × Capture 1 Week is $59.97, 10 Preset Packs $2.50", () => {
    const capture = products.find((p) => p.name === "Kestrel Capture");
    const packs = products.find((p) => p.name === "Preset Packs");
    const week = capture && findDuration(capture, "1-week");
    const standard = packs && findDuration(packs, "standard");
    if (!capture || !week || !packs || !standard) throw new Error("demo catalogue changed");
    // 4.99 × 4.006 = 19.98994 → $19.99 each, but 59.96982 → $59.97 for three.
    expect(formatUsd(computeTotal(capture, week, 3))).toBe("$59.97");
    expect(formatUsd(computeTotal(packs, standard, 10))).toBe("$2.50");
  });

  it("allows 10 Preset Packs, 10 Kestrel Studio (for its volume discount) and 5 of every other product", () => {
    expect(Object.fromEntries(products.map((p) => [p.name, p.maxQuantity]))).toEqual({
      "Kestrel Vault": 5,
      "Kestrel Sandbox": 5,
      "Kestrel Capture": 5,
      "Kestrel Studio": 10,
      "Kestrel Capture Ultimate": 5,
      "Preset Packs": 10,
    });
  });

  it("covers exactly the demo catalogue's products and durations", () => {
    const actual = Object.fromEntries(products.map((p) => [p.name, p.durations.map((d) => d.value)]));
    const expected = Object.fromEntries(
      Object.entries(expectedPrices).map(([name, prices]) => [name, Object.keys(prices)]),
    );
    expect(actual).toEqual(expected);
  });

  for (const [name, prices] of Object.entries(expectedPrices)) {
    for (const [value, price] of Object.entries(prices)) {
      it(`prices ${name} ${value} at $${price}`, () => {
        const product = products.find((p) => p.name === name);
        const duration = product && findDuration(product, value);
        expect(duration, `${name} has a ${value} duration`).toBeDefined();
        if (!product || !duration) return;
        expect(formatCents(computeTotal(product, duration))).toBe(price);
        expect(formatUsd(computeTotal(product, duration))).toBe(`$${price}`);
      });
    }
  }

  it("uses the first duration's multiplier of 1 as the base price", () => {
    for (const product of products) expect(basePriceCents(product)).toBe(computeTotal(product, product.durations[0]!));
  });
});

describe("volume discounts", () => {
  const { products } = loadContent(path.resolve(import.meta.dirname, "../../../content"));
  const studio = products.find((p) => p.name === "Kestrel Studio") as Product;
  const lifetime = findDuration(studio, "lifetime")!;

  it("the demo catalogue gives 10% off five Kestrel Studio keys or more, 15% from ten", () => {
    expect(studio.volumeDiscounts).toEqual([
      { quantity: 5, percent: 10 },
      { quantity: 10, percent: 15 },
    ]);
  });

  it("applies nothing below the first tier: the totals every other test relies on stay as they were", () => {
    for (const quantity of [1, 2, 3, 4]) {
      const line = priceLine(studio, lifetime, quantity);
      expect(line.discount).toBeUndefined();
      expect(line.totalCents).toBe(priceCents(39.99, 7.5, quantity));
    }
  });

  it("applies the highest tier reached, rounded half-up on the line: 5 × Studio Lifetime is $1349.67", () => {
    // 39.99 × 7.5 × 5 = 1499.625 → $1499.63; 10% of 149963 = 14996.3 → 14996; 149963 − 14996 = 134967.
    expect(priceLine(studio, lifetime, 5)).toEqual({
      listCents: 149963,
      discount: { tier: { quantity: 5, percent: 10 }, cents: 14996 },
      totalCents: 134967,
    });
    expect(formatUsd(computeTotal(studio, lifetime, 5))).toBe("$1349.67");
    expect(volumeTierFor(studio, 9)).toEqual({ quantity: 5, percent: 10 });
    expect(volumeTierFor(studio, 10)).toEqual({ quantity: 10, percent: 15 });
  });

  it("turns the tiers off when a coupon is entered and the product says so", () => {
    expect(computeTotal(studio, lifetime, 5, { coupon: "WELCOME10" })).toBe(149963);
    expect(computeTotal({ ...studio, disableVolumeDiscountsWithCoupon: false }, lifetime, 5, { coupon: "X" })).toBe(
      134967,
    );
  });

  it("says what the next tier saves, only within the quantity allowed", () => {
    expect(nextVolumeTier(studio, 3, 10)).toEqual({ tier: { quantity: 5, percent: 10 }, more: 2 });
    expect(nextVolumeTier(studio, 5, 10)).toEqual({ tier: { quantity: 10, percent: 15 }, more: 5 });
    expect(nextVolumeTier(studio, 5, 8)).toBeUndefined();
    expect(nextVolumeTier(studio, 10, 10)).toBeUndefined();
    expect(nextVolumeTier(studio, 3, 10, { coupon: "X" })).toBeUndefined();
  });

  it("takes a percentage in exact decimal arithmetic", () => {
    expect(percentOfCents(1999, 12.5)).toBe(250); // 249.875
    expect(percentOfCents(1000, 33.333)).toBe(333); // 333.33
    expect(percentOfCents(5, 10)).toBe(1); // 0.5 → 1
  });

  it("applies to a shop variant's own price as well", () => {
    const shopDuration = { ...lifetime, priceCents: 1000 };
    expect(priceLine(studio, shopDuration, 5)).toMatchObject({ listCents: 5000, totalCents: 4500 });
  });
});
