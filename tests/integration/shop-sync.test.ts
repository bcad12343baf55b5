import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { overlayFileSchema } from "~/features/catalog/catalog.content";
import { overlayDrift, productsFromShop } from "~/features/catalog/shop-catalogue.server";
import { holdLease } from "~/platform/leases.server";
import {
  type LoadedSnapshot,
  readLatestSnapshot,
  requestCatalogueSync,
  type ShopSync,
  startShopSync,
  syncRetryDelayMs,
} from "~/features/catalog/shop-sync.server";
import { createSellAuthCatalogue, ShopApiError } from "~/features/catalog/sources/sellauth.server";
import { siteSchema } from "~/features/layout/site.content";
import { HIDDEN_PRODUCT_ID, MALFORMED_PRODUCT, SHOP_ONLY_PRODUCT_ID, updateVariant } from "../fakes/shop-catalogue";
import { type ShopEmulator, startShopEmulator } from "../fakes/shop-emulator";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";

const dialects = await testDialects();
const site = siteSchema.parse(JSON.parse(fs.readFileSync(path.resolve("content/site.json"), "utf8")));
const overlay = overlayFileSchema.parse(JSON.parse(fs.readFileSync(path.resolve("content/products.json"), "utf8")));

async function until<T>(read: () => T | Promise<T>, accept: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting; last value: ${JSON.stringify(value)?.slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the shop's catalogue API, read defensively", () => {
  let shop: ShopEmulator;
  beforeAll(async () => {
    shop = await startShopEmulator();
  });
  afterAll(async () => {
    await shop.close();
  });
  const api = () => createSellAuthCatalogue({ apiBase: shop.url, shopId: shop.shopId, apiKey: shop.apiKey });

  it("reads every page of products, prices given as numbers or decimal strings, and sets a malformed product apart", async () => {
    const { products, skipped } = await api().products();
    expect(products.map((p) => p.id)).toEqual([
      446889,
      446891,
      446893,
      446894,
      447089,
      447097,
      SHOP_ONLY_PRODUCT_ID,
      HIDDEN_PRODUCT_ID,
    ]);
    const studio = products.find((p) => p.id === 446894);
    expect(studio?.variants.map((v) => [v.name, v.priceCents, v.stock])).toEqual([
      ["1 Week", 3999, null],
      ["1 Month", 8999, null],
      ["Lifetime", 29993, null],
    ]);
    expect(products.find((p) => p.id === SHOP_ONLY_PRODUCT_ID)?.variants.map((v) => [v.priceCents, v.stock])).toEqual([
      [950, 10],
      [4900, 3],
    ]);
    expect(skipped).toEqual([{ id: MALFORMED_PRODUCT.id, reason: expect.stringContaining("expected a price") }]);
  });

  it("follows Laravel's pages to the last one", async () => {
    const big = await startShopEmulator({ extraProducts: 250 });
    try {
      const { products } = await createSellAuthCatalogue({
        apiBase: big.url,
        shopId: big.shopId,
        apiKey: big.apiKey,
      }).products();
      expect(products).toHaveLength(258);
      expect(new Set(products.map((p) => p.id)).size).toBe(258);
      // 258 products and the malformed one, 100 a page.
      expect(big.requests.filter((r) => r.path.endsWith("/products"))).toHaveLength(3);
    } finally {
      await big.close();
    }
  });

  it("answers 429 with the shop's Retry-After, which the sync waits for", async () => {
    shop.rateLimitNext(1, 7);
    const error = await api()
      .groups()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopApiError);
    expect((error as ShopApiError).retryAfterMs).toBe(7_000);
    expect(syncRetryDelayMs(1, 300_000, error)).toBe(7_000);
    expect(syncRetryDelayMs(4, 300_000, new ShopApiError("down"))).toBe(8_000);
  });

  it("gives up on a slow answer after its timeout", async () => {
    shop.catalogue.delayMs = 500;
    try {
      await expect(
        createSellAuthCatalogue({
          apiBase: shop.url,
          shopId: shop.shopId,
          apiKey: shop.apiKey,
          timeoutMs: 100,
        }).groups(),
      ).rejects.toThrow(/no answer in 100 ms/);
    } finally {
      shop.catalogue.delayMs = 0;
    }
  });

  it("lists only public products, with the shop's prices and the content's copy; a product without overlay gets the shop's own", async () => {
    const api_ = api();
    const [settings, groups, { products, skipped }, feedbacks] = await Promise.all([
      api_.settings(),
      api_.groups(),
      api_.products(),
      api_.feedbacks(),
    ]);
    const snapshot = { syncedAt: new Date().toISOString(), settings, groups, products, feedbacks, skipped };
    const listed = productsFromShop(snapshot, overlay, site, { shopUrl: "https://kestrel.mysellauth.com" });
    expect(listed.map((p) => p.id)).not.toContain(HIDDEN_PRODUCT_ID);
    const vault = listed.find((p) => p.id === 446889);
    expect(vault).toMatchObject({
      name: "Kestrel Vault",
      category: "utilities",
      features: expect.arrayContaining(["Secure file shredding"]),
      originalPrice: 19.99,
    });
    expect(vault?.durations.map((d) => [d.label, d.variantId, d.priceCents])).toEqual([
      ["1 Day (One-time)", 652996, 1499],
      ["Lifetime", 652997, 2999],
    ]);
    const relay = listed.find((p) => p.id === SHOP_ONLY_PRODUCT_ID);
    expect(relay).toMatchObject({
      name: "Kestrel Relay",
      slug: "relay",
      category: "utilities",
      price: 9.5,
      description: "Remote desktop relay with end-to-end encryption. bad link Learn more",
    });
    expect(relay?.descriptionHtml).toContain("<strong>end-to-end encryption</strong>");
    expect(relay?.descriptionHtml).not.toMatch(/script|javascript:/);
    expect(relay?.descriptionHtml).toContain(
      '<a href="https://example.com/relay" rel="noopener noreferrer nofollow" target="_blank">',
    );
    expect(relay?.cardImage.src).toBe("/images/products/shop-product-card.svg");
    expect(overlayDrift(snapshot, [...overlay, { id: 999 }])).toEqual(["product 999: the shop has no such product"]);
  });
});

describe.each(dialects)("catalogue sync on %s", (dialect) => {
  let database: TestDatabase;
  let shop: ShopEmulator;
  const syncs: ShopSync[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterEach(async () => {
    for (const sync of syncs.splice(0)) await sync.stop();
    await shop?.close();
    await database.handle.db.deleteFrom("catalogue_snapshots").execute();
    await database.handle.db.deleteFrom("catalogue_sync_requests").execute();
    await database.handle.db.deleteFrom("leases").execute();
  });
  afterAll(async () => {
    await database.drop();
  });

  function start(instanceId: string, seen: LoadedSnapshot[], options: { refreshMs?: number } = {}) {
    const sync = startShopSync({
      db: database.handle.db,
      api: createSellAuthCatalogue({ apiBase: shop.url, shopId: shop.shopId, apiKey: shop.apiKey, timeoutMs: 2_000 }),
      refreshMs: options.refreshMs ?? 300_000,
      onSnapshot: (loaded) => seen.push(loaded),
      instanceId,
      pollMs: 50,
    });
    syncs.push(sync);
    return sync;
  }

  it("syncs at start, serves the snapshot, and resyncs one product on request", async () => {
    shop = await startShopEmulator();
    const seen: LoadedSnapshot[] = [];
    const sync = start("a", seen);
    await sync.firstSnapshot;
    expect(seen[0]?.snapshot.products).toHaveLength(8);
    updateVariant(shop.catalogue, 446894, 653023, { price: "249.00", stock: 0 });
    const requestsBefore = shop.requests.length;
    await requestCatalogueSync(database.handle.db, { kind: "product", productId: 446894 });
    const latest = await until(
      () => seen.at(-1),
      (s) => (s?.version ?? 0) > (seen[0]?.version ?? 0),
    );
    const lifetime = latest?.snapshot.products.find((p) => p.id === 446894)?.variants.find((v) => v.id === 653023);
    expect(lifetime).toMatchObject({ priceCents: 24900, stock: 0 });
    // One product read again, not the whole shop.
    expect(shop.requests.slice(requestsBefore).map((r) => r.path)).toEqual([
      `/v1/shops/${shop.shopId}/products/446894`,
    ]);
  });

  it("keeps the last good catalogue while the shop is down, and retries", async () => {
    shop = await startShopEmulator();
    const seen: LoadedSnapshot[] = [];
    const sync = start("a", seen, { refreshMs: 10_000 });
    await sync.firstSnapshot;
    shop.catalogue.down = true;
    await requestCatalogueSync(database.handle.db, { kind: "full" });
    await until(
      () => sync.lastError(),
      (e) => e !== null,
      8_000,
    );
    expect(sync.lastError()).toMatch(/503/);
    expect(seen).toHaveLength(1);
    expect((await readLatestSnapshot(database.handle.db))?.version).toBe(seen[0]?.version);
    shop.catalogue.down = false;
    await until(
      () => seen.length,
      (n) => n === 2,
      10_000,
    );
    expect(sync.lastError()).toBeNull();
  });

  it("lets one instance sync at a time; the others serve what it wrote, and a stopped one's lease is taken over", async () => {
    shop = await startShopEmulator();
    const seenA: LoadedSnapshot[] = [];
    const seenB: LoadedSnapshot[] = [];
    const a = start("a", seenA);
    await a.firstSnapshot;
    const b = start("b", seenB);
    await b.firstSnapshot;
    expect(seenB[0]?.version).toBe(seenA[0]?.version);
    const productReads = () => shop.requests.filter((r) => r.path.endsWith("/products")).length;
    expect(productReads()).toBe(1);
    expect(await holdLease(database.handle.db, "catalogue-sync", "b", 15_000, new Date())).toBe(false);
    await a.stop();
    syncs.splice(syncs.indexOf(a), 1);
    // A stopped instance lets go of its lease: the other one takes the next request.
    updateVariant(shop.catalogue, 446889, 652997, { price: "31.00" });
    await requestCatalogueSync(database.handle.db, { kind: "product", productId: 446889 });
    const latest = await until(
      () => seenB.at(-1),
      (s) => s?.snapshot.products.find((p) => p.id === 446889)?.variants[1]?.priceCents === 3100,
    );
    expect(latest?.version).toBeGreaterThan(seenA[0]?.version ?? 0);
  });
});
