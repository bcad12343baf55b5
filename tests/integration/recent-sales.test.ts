// The recent-sales notice's sales (issue 36): only completed, not refunded sales of the last 7 days, from the connected
// shop's invoices or the demo checkout's own orders, none until 3 are real, and never who bought or for how much.
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSellAuthCatalogue } from "~/features/catalog/sources/sellauth.server";
import { siteSchema } from "~/features/layout/site.content";
import { RECENT_SALES_WINDOW_MS } from "~/features/recent-sales/recent-sales";
import { createRecentSalesApi } from "~/features/recent-sales/recent-sales.api.server";
import {
  createRecentSalesReader,
  presentRecentSales,
  RECENT_SALES_CACHE_MS,
  type Sale,
  salesFromLocalOrders,
  salesFromShopInvoices,
} from "~/features/recent-sales/recent-sales.server";
import { type ShopEmulator, startShopEmulator } from "../fakes/shop-emulator";
import { recentRelaySales } from "../fakes/shop-invoices";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";

const HOUR = 3_600_000;
const dialects = await testDialects();
const names = (productId: number, variantId: number | null) =>
  productId === 447200 ? { product: "Kestrel Relay", variant: variantId === 699000 ? "1 Month" : null } : undefined;

describe("sales from the shop's invoices", () => {
  it("counts only completed, not refunded invoices of the last 7 days, with their country codes", () => {
    const now = Date.now();
    const sales = salesFromShopInvoices(recentRelaySales(now), now);
    // 7001, 7002, 7003 and 7008 (30 hours ago); not the refunded, pending or cancelled ones.
    expect(sales.map((s) => s.country)).toEqual(["FR", "US", "BR", "BR"]);
    expect(new Set(sales.map((s) => s.productId))).toEqual(new Set([447200]));
    expect(sales.every((s) => s.country === null || /^[A-Z]{2}$/.test(s.country))).toBe(true);
  });

  it("leaves out an invoice older than 7 days, a malformed one, and reads a lower-case country code", () => {
    const now = Date.now();
    const old = {
      status: "completed",
      created_at: new Date(now - RECENT_SALES_WINDOW_MS - HOUR).toISOString(),
      product: { id: 1 },
    };
    const fresh = {
      status: "completed",
      created_at: new Date(now - HOUR).toISOString(),
      product: { id: 1 },
      country_code: "de",
    };
    expect(salesFromShopInvoices([old, fresh, null, "x", { status: 5 }], now)).toEqual([
      { productId: 1, variantId: null, country: "DE", atMs: Date.parse(fresh.created_at) },
    ]);
  });
});

describe("what the browser may see", () => {
  const now = Date.parse("2026-11-20T12:30:00Z");
  const sale = (hoursAgo: number, country: string | null = "DE"): Sale => ({
    productId: 447200,
    variantId: 699000,
    country,
    atMs: now - hoursAgo * HOUR - 17 * 60_000,
  });

  it("is nothing at all with fewer than 3 real sales in the last 7 days", () => {
    expect(presentRecentSales([sale(1), sale(2)], now, names)).toEqual([]);
    expect(presentRecentSales([sale(1), sale(2), sale(24 * 8)], now, names)).toEqual([]);
  });

  it("is product, duration, country and the hour, newest first, once there are 3", () => {
    expect(presentRecentSales([sale(30), sale(2, null), sale(5, "BR")], now, names)).toEqual([
      { product: "Kestrel Relay", variant: "1 Month", country: null, at: "2026-11-20T10:00:00.000Z" },
      { product: "Kestrel Relay", variant: "1 Month", country: "BR", at: "2026-11-20T07:00:00.000Z" },
      { product: "Kestrel Relay", variant: "1 Month", country: "DE", at: "2026-11-19T06:00:00.000Z" },
    ]);
  });

  it("leaves out products the catalogue does not list", () => {
    const hidden = { ...sale(1), productId: 999 };
    expect(presentRecentSales([sale(1), sale(2), sale(3), hidden], now, names)).toHaveLength(3);
  });
});

describe("the recent sales of a connected shop, through the API", () => {
  let shop: ShopEmulator;
  let server: ReturnType<express.Express["listen"]>;
  let base = "";
  let enabled = true;
  let clock = Date.now();

  beforeAll(async () => {
    shop = await startShopEmulator();
    const api = createSellAuthCatalogue({ apiBase: shop.url, shopId: shop.shopId, apiKey: shop.apiKey });
    const reader = createRecentSalesReader({
      enabled: () => enabled,
      readSales: async (now) =>
        salesFromShopInvoices(await api.invoicesSince(new Date(now - RECENT_SALES_WINDOW_MS)), now),
      nameOf: () => names,
      now: () => clock,
    });
    const app = express();
    app.use(
      "/api",
      createRecentSalesApi(() => reader),
    );
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await shop.close();
  });
  const invoiceReads = () => shop.requests.filter((r) => r.path.endsWith("/invoices")).length;

  it("answers the shop's sales with a country and the hour, cacheable, naming no buyer and no amount", async () => {
    const response = await fetch(`${base}/api/recent-sales?locale=de`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
    const text = await response.text();
    const { sales } = JSON.parse(text) as { sales: Array<Record<string, unknown>> };
    expect(sales).toHaveLength(4);
    for (const s of sales) {
      expect(Object.keys(s).sort()).toEqual(["at", "country", "product", "variant"]);
      expect(String(s.at)).toMatch(/T\d{2}:00:00\.000Z$/);
    }
    expect(sales[0]).toMatchObject({ product: "Kestrel Relay", variant: "1 Month" });
    for (const secret of ["relay-buyer@example.com", "A Buyer", "9.50", "email", "price", "name"])
      expect(text).not.toContain(secret);
  });

  it("reads the shop once a minute, whoever asks", async () => {
    const before = invoiceReads();
    await fetch(`${base}/api/recent-sales`);
    await fetch(`${base}/api/recent-sales?locale=es`);
    expect(invoiceReads()).toBe(before);
    clock += RECENT_SALES_CACHE_MS + 1;
    await fetch(`${base}/api/recent-sales`);
    expect(invoiceReads()).toBe(before + 1);
  });

  it("answers nothing while the notice is off, and 400 for a language it does not serve", async () => {
    enabled = false;
    try {
      expect(await (await fetch(`${base}/api/recent-sales`)).json()).toEqual({ sales: [] });
    } finally {
      enabled = true;
    }
    expect((await fetch(`${base}/api/recent-sales?locale=xx`)).status).toBe(400);
  });
});

describe("site.json's recentSales", () => {
  const site = siteSchema.shape.recentSales;
  it("is off unless the owner turns it on, and only true or false", () => {
    expect(site.parse(undefined)).toBe(false);
    expect(site.parse(true)).toBe(true);
    expect(site.safeParse("yes").success).toBe(false);
  });
});

describe.each(dialects)("the demo checkout's own orders on %s", (dialect) => {
  let database: TestDatabase;
  const now = Date.now();
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database?.drop();
  });

  async function order(status: "completed" | "refunded" | "pending" | "failed", hoursAgo: number) {
    const at = new Date(now - hoursAgo * HOUR).toISOString();
    await database.handle.db
      .insertInto("orders")
      .values({
        id: crypto.randomUUID(),
        provider: "demo",
        provider_invoice_id: null,
        product_id: 446894,
        variant_id: 653021,
        quantity: 1,
        amount_cents: 3999,
        status,
        created_at: at,
        completed_at: status === "pending" || status === "failed" ? null : at,
        raw_event_id: null,
        shop_status: null,
        coupon: null,
        buyer_email: "demo-buyer@example.com",
      })
      .execute();
  }

  it("counts completed orders of the last 7 days only, and shows none before the third", async () => {
    const studio = (productId: number) =>
      productId === 446894 ? { product: "Kestrel Studio", variant: "1 Week" } : undefined;
    await order("completed", 1);
    await order("completed", 3);
    await order("refunded", 2);
    await order("pending", 1);
    await order("failed", 1);
    await order("completed", 24 * 8);
    const two = await salesFromLocalOrders(database.handle.db, now);
    expect(two.map((s) => s.productId)).toEqual([446894, 446894]);
    expect(presentRecentSales(two, now, studio)).toEqual([]);
    await order("completed", 5);
    const three = presentRecentSales(await salesFromLocalOrders(database.handle.db, now), now, studio);
    expect(three).toHaveLength(3);
    expect(three[0]).toEqual({
      product: "Kestrel Studio",
      variant: "1 Week",
      country: null,
      at: new Date(Math.floor((now - HOUR) / HOUR) * HOUR).toISOString(),
    });
    expect(JSON.stringify(three)).not.toContain("demo-buyer");
  });
});
