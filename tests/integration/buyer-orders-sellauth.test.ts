import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  BUYER_ORDERS_CACHE_MS,
  BuyerOrdersUnavailableError,
  createSellAuthBuyerOrders,
  DELIVERED_RETRY_MS,
  SINGLE_INVOICE_READS_AT_ONCE,
} from "~/features/buyer-orders/sources/sellauth.server";
import { createBuyerOrderSource, NO_API_KEY_REASON } from "~/features/buyer-orders/buyer-orders.server";
import { type Env, parseEnv } from "~/platform/env.server";
import { type ShopEmulator, startShopEmulator } from "../fakes/shop-emulator";
import { BUYERS, PARTIAL_SECRET, REFUNDED_SECRET } from "../fakes/shop-invoices";

describe("a buyer's orders from the connected SellAuth shop's invoices", () => {
  let shop: ShopEmulator;
  // lru-cache reads a start time of 0 as "no TTL": the clock starts later.
  let clock = 1_000_000;
  const source = (options: { apiKey?: string; cacheMs?: number } = {}) =>
    createSellAuthBuyerOrders({
      apiBase: shop.url,
      shopId: shop.shopId,
      apiKey: options.apiKey ?? shop.apiKey,
      now: () => clock,
      ...options,
    });
  const invoiceReads = () => shop.requests.filter((r) => r.path === `/v1/shops/${shop.shopId}/invoices`);
  const singleReads = () =>
    shop.requests
      .filter((r) => r.path.startsWith(`/v1/shops/${shop.shopId}/invoices/`))
      .map((r) => r.path.split("/").at(-1));

  beforeAll(async () => {
    shop = await startShopEmulator();
  });
  afterEach(() => {
    shop.requests.length = 0;
    shop.setInvoiceEmailMatch("exact");
    shop.failingInvoiceReads.clear();
    Object.assign(shop.singleInvoiceReads, { delayMs: 0, limitNext: 0 });
  });
  afterAll(async () => {
    await shop.close();
  });

  it("asks for the address's invoices with the API key, and maps every documented status", async () => {
    const orders = await source().ordersOf(BUYERS.alice);
    const read = invoiceReads();
    expect(read).toHaveLength(1);
    expect(read[0]?.headers.authorization).toBe(`Bearer ${shop.apiKey}`);
    expect(orders.map((o) => [o.id, o.status])).toEqual([
      ["5001", { kind: "paid" }],
      ["5002", { kind: "partly-delivered" }],
      ["5003", { kind: "waiting" }],
      ["5004", { kind: "pending" }],
      ["5005", { kind: "refunded" }],
      ["5006", { kind: "cancelled" }],
      ["5007", { kind: "expired" }],
      ["5008", { kind: "cancelled" }],
      ["5009", { kind: "unknown", shopSpelling: "on_hold_review" }],
    ]);
  });

  it("shows what a completed invoice delivered: serials, keys and download links, with its items and invoice page", async () => {
    const [paid] = await source().ordersOf(BUYERS.alice);
    expect(paid).toEqual({
      id: "5001",
      createdAt: "2026-01-31T00:00:00.000Z",
      items: [{ productName: "Kestrel Studio", durationLabel: "Lifetime", quantity: 2 }],
      amount: "299.93",
      currency: "USD",
      status: { kind: "paid" },
      invoiceUrl: "https://kestrel.mysellauth.com/checkout/inv-5001",
      delivered: [
        { kind: "serial", value: "STUDIO-AAAA-1111", label: "Kestrel Studio" },
        { kind: "serial", value: "STUDIO-BBBB-2222", label: "Kestrel Studio" },
        { kind: "link", value: "https://downloads.example.com/studio-setup.exe", label: "Kestrel Studio" },
        { kind: "key", value: "STUDIO-LICENCE-FILE-LINE", label: "Kestrel Studio" },
      ],
    });
  });

  it("reads what was delivered from the single invoice of each completed one, as the list's rows carry none", async () => {
    const listed = await fetch(`${shop.url}/v1/shops/${shop.shopId}/invoices?email=${BUYERS.alice}`, {
      headers: { Authorization: `Bearer ${shop.apiKey}` },
    }).then((r) => r.text());
    expect(listed).not.toContain("STUDIO-AAAA-1111");
    const orders = await source().ordersOf(BUYERS.alice);
    expect(singleReads()).toEqual(["5001"]);
    expect(orders[0]?.delivered.map((d) => d.value)).toContain("STUDIO-AAAA-1111");
    expect(orders.some((o) => o.deliveredUnreadable)).toBe(false);
  });

  it("says the key could not be loaded when the single invoice fails, and loads it on the next visit", async () => {
    shop.failingInvoiceReads.add("5001");
    const orders = source();
    const [failed] = await orders.ordersOf(BUYERS.alice);
    expect(failed).toMatchObject({ id: "5001", status: { kind: "paid" }, delivered: [], deliveredUnreadable: true });
    expect(singleReads()).toEqual(["5001"]);
    // Within the same second nothing is asked again; a second later the failed read (and only it) is tried again.
    await orders.ordersOf(BUYERS.alice);
    expect(singleReads()).toEqual(["5001"]);
    shop.failingInvoiceReads.clear();
    clock += DELIVERED_RETRY_MS;
    const [loaded] = await orders.ordersOf(BUYERS.alice);
    expect(loaded?.deliveredUnreadable).toBeUndefined();
    expect(loaded?.delivered.map((d) => d.value)).toContain("STUDIO-AAAA-1111");
    expect(singleReads()).toEqual(["5001", "5001"]);
    expect(invoiceReads()).toHaveLength(1);
    // Kept with the list: loaded once, not read again within its 60 s.
    clock += DELIVERED_RETRY_MS;
    await orders.ordersOf(BUYERS.alice);
    expect(singleReads()).toHaveLength(2);
  });

  it("reads the single invoices in parallel, at most a few at once", async () => {
    shop.singleInvoiceReads.delayMs = 5;
    shop.singleInvoiceReads.maxAtOnce = 0;
    const orders = await source().ordersOf(BUYERS.many);
    expect(singleReads()).toHaveLength(205);
    expect(shop.singleInvoiceReads.maxAtOnce).toBeGreaterThan(1);
    expect(shop.singleInvoiceReads.maxAtOnce).toBeLessThanOrEqual(SINGLE_INVOICE_READS_AT_ONCE);
    expect(orders.every((o) => o.delivered.length === 1 && !o.deliveredUnreadable)).toBe(true);
  });

  it("asks for no more single invoices after a 429, and waits for its Retry-After before trying again", async () => {
    const orders = source();
    Object.assign(shop.singleInvoiceReads, { limitNext: 1, retryAfterSeconds: 30 });
    const read = await orders.ordersOf(BUYERS.many);
    // The reads already under way finish; none is started after the refusal.
    const asked = singleReads().length;
    expect(asked).toBeLessThanOrEqual(SINGLE_INVOICE_READS_AT_ONCE);
    expect(read.filter((o) => o.deliveredUnreadable)).toHaveLength(205 - (asked - 1));
    clock += DELIVERED_RETRY_MS;
    await orders.ordersOf(BUYERS.many);
    expect(singleReads()).toHaveLength(asked);
    clock += 30_000;
    const again = await orders.ordersOf(BUYERS.many);
    expect(again.some((o) => o.deliveredUnreadable)).toBe(false);
  });

  it("reads a completed invoice the shop later refunded as refunded: no single read, no key", async () => {
    const bobs = shop.buyerInvoices.find((i) => i.id === 6001);
    if (!bobs) throw new Error("the emulator lost Bob's invoice");
    bobs.refunded_at = "2026-01-22T00:00:00.000000Z";
    try {
      const [order] = await source().ordersOf(BUYERS.bob);
      expect(order?.status).toEqual({ kind: "refunded" });
      expect(singleReads()).toEqual([]);
    } finally {
      delete bobs.refunded_at;
    }
  });

  it("never shows the keys of a refunded invoice, nor those of one only partly delivered", async () => {
    const orders = await source().ordersOf(BUYERS.alice);
    const text = JSON.stringify(orders);
    expect(text).not.toContain(REFUNDED_SECRET);
    expect(text).not.toContain(PARTIAL_SECRET);
    expect(orders.find((o) => o.id === "5005")?.delivered).toEqual([]);
  });

  it("reads every page: 205 invoices over three pages of 100, newest first", async () => {
    const orders = await source().ordersOf(BUYERS.many);
    expect(orders).toHaveLength(205);
    expect(invoiceReads().map((r) => r.headers.host && r.path)).toHaveLength(3);
    expect(orders[0]?.delivered).toEqual([{ kind: "serial", value: "MANY-0204", label: "Kestrel Vault" }]);
    expect(orders.at(-1)?.id).toBe("7000");
    const dates = orders.map((o) => o.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it("skips malformed invoices and shows the rest: a completed invoice without delivered items, in euros", async () => {
    const orders = await source().ordersOf(BUYERS.bob);
    expect(orders).toEqual([expect.objectContaining({ id: "6001", amount: "9.50", currency: "EUR", delivered: [] })]);
  });

  it("answers no orders for an address that bought nothing", async () => {
    expect(await source().ordersOf(BUYERS.nobody)).toEqual([]);
  });

  it("shows only the address's own invoices when the shop's email filter is loose or ignored", async () => {
    shop.buyerInvoices.push({ ...shop.buyerInvoices[0], id: 9901, email: `x${BUYERS.alice}` });
    try {
      shop.setInvoiceEmailMatch("contains");
      const loose = await source().ordersOf(BUYERS.alice);
      expect(loose.map((o) => o.id)).not.toContain("9901");
      shop.setInvoiceEmailMatch("ignored");
      const ignored = await source().ordersOf(BUYERS.bob);
      expect(ignored.map((o) => o.id)).toEqual(["6001"]);
    } finally {
      shop.buyerInvoices.pop();
    }
  });

  it("keeps an address's answer for at most 60 s, and never answers one address with another's", async () => {
    const orders = source();
    const first = await orders.ordersOf(BUYERS.alice);
    expect(await orders.ordersOf(" ALICE@example.com ")).toEqual(first);
    expect(invoiceReads()).toHaveLength(1);
    const bob = await orders.ordersOf(BUYERS.bob);
    expect(bob.map((o) => o.id)).toEqual(["6001"]);
    expect(invoiceReads()).toHaveLength(2);
    clock += BUYER_ORDERS_CACHE_MS - 1_000;
    await orders.ordersOf(BUYERS.alice);
    expect(invoiceReads()).toHaveLength(2);
    clock += 1_001;
    await orders.ordersOf(BUYERS.alice);
    expect(invoiceReads()).toHaveLength(3);
  });

  it("never keeps longer than 60 s, whatever it is asked", async () => {
    const orders = source({ cacheMs: 3_600_000 });
    await orders.ordersOf(BUYERS.bob);
    clock += BUYER_ORDERS_CACHE_MS + 1;
    await orders.ordersOf(BUYERS.bob);
    expect(invoiceReads()).toHaveLength(2);
  });

  it("shares one read between concurrent visits of the same address", async () => {
    const orders = source();
    const [a, b] = await Promise.all([orders.ordersOf(BUYERS.alice), orders.ordersOf(BUYERS.alice)]);
    expect(a).toEqual(b);
    expect(invoiceReads()).toHaveLength(1);
  });

  it("hands each caller its own copy: changing one answer changes no other", async () => {
    const orders = source();
    const first = await orders.ordersOf(BUYERS.alice);
    first[0]?.delivered.push({ kind: "key", value: "TAMPERED" });
    expect(JSON.stringify(await orders.ordersOf(BUYERS.alice))).not.toContain("TAMPERED");
  });

  it("says the shop cannot be read (not 'no orders') on a wrong key, a 429 or a dead shop, and keeps no failure", async () => {
    await expect(source({ apiKey: "wrong" }).ordersOf(BUYERS.alice)).rejects.toThrow(BuyerOrdersUnavailableError);
    const orders = source();
    shop.rateLimitNext(1, 7);
    const limited = await orders.ordersOf(BUYERS.alice).catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(BuyerOrdersUnavailableError);
    expect((limited as BuyerOrdersUnavailableError).retryAfterMs).toBe(7_000);
    expect(await orders.ordersOf(BUYERS.alice)).toHaveLength(9);
    const dead = createSellAuthBuyerOrders({ apiBase: "http://127.0.0.1:9", shopId: "1", apiKey: "k", timeoutMs: 500 });
    await expect(dead.ordersOf(BUYERS.alice)).rejects.toThrow(BuyerOrdersUnavailableError);
  });

  it("without SHOP_API_KEY, a SellAuth shop says orders cannot be read, instead of failing", async () => {
    const env = { ...parseEnv({}), CHECKOUT_PROVIDER: "sellauth", SHOP_API_KEY: undefined } as Env;
    const unavailable = createBuyerOrderSource(env);
    expect(unavailable.ordersAvailable).toBe(false);
    expect(unavailable.unavailableReason).toBe(NO_API_KEY_REASON);
    expect(await unavailable.ordersOf(BUYERS.alice)).toEqual([]);
    const withKey = createBuyerOrderSource({ ...env, SHOP_API_KEY: shop.apiKey, SHOP_API_BASE: shop.url });
    expect(withKey.ordersAvailable).toBe(true);
    expect(await withKey.ordersOf(BUYERS.bob)).toHaveLength(1);
  });
});
