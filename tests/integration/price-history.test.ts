// Struck-through prices from a connected shop (issue 36): the sync records every price it sees, and a reduction is
// shown, with the lowest price of the 30 days before it, only once 30 days of prices are recorded.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { overlayFileSchema } from "~/features/catalog/catalog.content";
import { lowestBefore, recordPrices, withPriceHistory } from "~/features/catalog/price-history.server";
import { productsFromShop, type ShopSnapshot } from "~/features/catalog/shop-catalogue.server";
import { withSalesCounts } from "~/features/catalog/sales-counts.server";
import { fetchShopSnapshot } from "~/features/catalog/shop-sync.server";
import { createSellAuthCatalogue } from "~/features/catalog/sources/sellauth.server";
import { siteSchema } from "~/features/layout/site.content";
import { SHOP_ONLY_PRODUCT_ID } from "../fakes/shop-catalogue";
import { type ShopEmulator, startShopEmulator } from "../fakes/shop-emulator";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";

const dialects = await testDialects();
const site = siteSchema.parse(JSON.parse(fs.readFileSync(path.resolve("content/site.json"), "utf8")));
const overlay = overlayFileSchema.parse(JSON.parse(fs.readFileSync(path.resolve("content/products.json"), "utf8")));
const DAY = 86_400_000;
const RELAY_MONTH = 699000;

function withPrice(snapshot: ShopSnapshot, variantId: number, priceCents: number): ShopSnapshot {
  return {
    ...snapshot,
    products: snapshot.products.map((p) => ({
      ...p,
      variants: p.variants.map((v) => (v.id === variantId ? { ...v, priceCents } : v)),
    })),
  };
}
const relayOf = (snapshot: ShopSnapshot) =>
  productsFromShop(snapshot, overlay, site, { shopUrl: "https://kestrel.mysellauth.com" }).find(
    (p) => p.id === SHOP_ONLY_PRODUCT_ID,
  );

describe("lowestBefore", () => {
  const row = (price: number, first: string, last = first) => ({
    price_cents: price,
    first_seen_at: `${first}T10:00:00.000Z`,
    last_seen_at: `${last}T12:00:00.000Z`,
  });
  it("is the lowest price of the 30 days before the current price began, never the reduction itself", () => {
    expect(lowestBefore([row(1200, "2026-10-01"), row(1100, "2026-11-10"), row(950, "2026-11-27")])).toBe(1100);
    expect(lowestBefore([row(1200, "2026-10-01"), row(1300, "2026-11-10"), row(950, "2026-11-27")])).toBe(1300);
  });
  it("is the current price when it has not changed", () => {
    expect(lowestBefore([row(950, "2026-10-01"), row(950, "2026-11-27")])).toBe(950);
  });
});

describe.each(dialects)("price history on %s", (dialect) => {
  let database: TestDatabase;
  let shop: ShopEmulator;
  let current: ShopSnapshot;
  const now = new Date();
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    shop = await startShopEmulator();
    current = await fetchShopSnapshot(
      createSellAuthCatalogue({ apiBase: shop.url, shopId: shop.shopId, apiKey: shop.apiKey }),
      now,
    );
  });
  afterAll(async () => {
    await shop.close();
    await database.drop();
  });

  it("reads the shop's struck-through prices but shows none without 30 days of recorded prices", async () => {
    const first = await withPriceHistory(database.handle.db, current, now);
    expect(first.prices?.[String(RELAY_MONTH)]).toEqual({ lowestCents: 950, recordedSince: now.toISOString() });
    const relay = relayOf(first);
    expect(relay?.price).toBe(9.5);
    expect(relay?.originalPrice).toBeUndefined();
    expect(relay?.lowestPrice30).toBeUndefined();
  });

  it("with 30 days of records shows the variant's price_slash and the lowest price of the 30 days before", async () => {
    // 31 days ago at $12.00, 10 days ago at $11.00, now at $9.50 (both variants seen 31 days ago).
    await recordPrices(database.handle.db, withPrice(current, RELAY_MONTH, 1200), new Date(now.getTime() - 31 * DAY));
    await recordPrices(database.handle.db, withPrice(current, RELAY_MONTH, 1100), new Date(now.getTime() - 10 * DAY));
    const synced = await withPriceHistory(database.handle.db, current, now);
    expect(synced.prices?.[String(RELAY_MONTH)]?.lowestCents).toBe(1100);
    const relay = relayOf(synced);
    // The cheapest variant's own price_slash ($12.50) wins over the product's min_price_slash ($12.00).
    expect(relay?.originalPrice).toBe(12.5);
    expect(relay?.lowestPrice30).toBe(11);
  });

  it("keeps one row per variant, day and price however often the sync runs", async () => {
    const before = await database.handle.db
      .selectFrom("shop_price_history")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    await recordPrices(database.handle.db, current, new Date(now.getTime() + 1000));
    const after = await database.handle.db
      .selectFrom("shop_price_history")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("counts Relay's sales of the last 24 hours from completed, not refunded invoices: 4 sold", async () => {
    const api = createSellAuthCatalogue({ apiBase: shop.url, shopId: shop.shopId, apiKey: shop.apiKey });
    const counted = await withSalesCounts(api, current, new Date());
    expect(counted.salesCounts).toEqual({ [String(SHOP_ONLY_PRODUCT_ID)]: 4 });
    expect(relayOf(counted)?.recentSales).toEqual({ count: 4, hours: 24 });
    // A product that does not show its count reads no invoices and shows none.
    expect(
      productsFromShop(counted, overlay, site, { shopUrl: "https://x.example" }).find((p) => p.id === 446894)
        ?.recentSales,
    ).toBeUndefined();
  });

  it("never reads an *_offset field: sold counts and settings are the shop's own", () => {
    expect(JSON.stringify(current.settings)).not.toMatch(/offset|5000|1200/);
    const studio = current.products.find((p) => p.id === 446894);
    expect(studio?.sold).toBe(210);
  });
});
