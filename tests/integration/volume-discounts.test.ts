// Volume discounts and quantity bounds (issue 36): the total the page shows is the total charged, in the demo shop and
// in a connected shop (the emulator works out its own charge), and the bounds hold at /api/checkout.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Captcha, createCaptcha, databaseSpentPayloadStore } from "~/features/captcha/captcha.server";
import { overlayFileSchema } from "~/features/catalog/catalog.content";
import { computeTotal, findDuration } from "~/features/catalog/pricing";
import { productsFromShop } from "~/features/catalog/shop-catalogue.server";
import { fetchShopSnapshot } from "~/features/catalog/shop-sync.server";
import { createSellAuthCatalogue } from "~/features/catalog/sources/sellauth.server";
import { checkoutRequestSchema } from "~/features/checkout/checkout";
import { startCheckout } from "~/features/checkout/checkout.server";
import { createDemoProvider } from "~/features/checkout/providers/demo.server";
import { createSellAuthProvider } from "~/features/checkout/providers/sellauth.server";
import { loadContent } from "~/features/content/content.server";
import { siteSchema } from "~/features/layout/site.content";
import { type ShopEmulator, startShopEmulator } from "../fakes/shop-emulator";
import { solveCaptchaPayload } from "../support/captcha-solver";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";

const dialects = await testDialects();
const { products, coupons } = loadContent("content");
const site = siteSchema.parse(JSON.parse(fs.readFileSync(path.resolve("content/site.json"), "utf8")));
const overlay = overlayFileSchema.parse(JSON.parse(fs.readFileSync(path.resolve("content/products.json"), "utf8")));
const STUDIO = 446894;
const STUDIO_LIFETIME = 653023;
const VAULT = 446889;
const VAULT_LIFETIME = 652997;

describe.each(dialects)("volume discounts and quantity bounds on %s", (dialect) => {
  let database: TestDatabase;
  let captcha: Captcha;
  let shop: ShopEmulator;
  const freshPayload = async () => solveCaptchaPayload(await captcha.issueChallenge());
  const orderOf = (orderId: string) =>
    database.handle.db
      .selectFrom("orders")
      .select(["amount_cents", "quantity", "coupon"])
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    captcha = createCaptcha({
      hmacKey: crypto.randomBytes(32).toString("hex"),
      store: databaseSpentPayloadStore(database.handle.db),
      counterRange: [50, 200],
    });
    shop = await startShopEmulator();
  });
  afterAll(async () => {
    await shop.close();
    await database.drop();
  });

  describe("the demo shop", () => {
    const demo = () => createDemoProvider(captcha, () => coupons);
    const checkout = async (body: Record<string, unknown>) =>
      startCheckout(
        { db: database.handle.db, products, provider: demo() },
        checkoutRequestSchema.parse({ ...body, altcha: await freshPayload() }),
      );

    it("charges five Kestrel Studio Lifetime keys what the page shows: 10% off, $1349.67", async () => {
      const studio = products.find((p) => p.id === STUDIO)!;
      const shown = computeTotal(studio, findDuration(studio, "lifetime")!, 5);
      expect(shown).toBe(134967);
      const result = await checkout({ productId: STUDIO, variantId: STUDIO_LIFETIME, quantity: 5 });
      if (!("orderId" in result.body)) throw new Error(result.body.error);
      expect(await orderOf(result.body.orderId)).toEqual({ amount_cents: shown, quantity: 5, coupon: null });
    });

    it("charges four at the full price (no tier reached)", async () => {
      const result = await checkout({ productId: STUDIO, variantId: STUDIO_LIFETIME, quantity: 4 });
      if (!("orderId" in result.body)) throw new Error(result.body.error);
      // 299.925 × 4 = 1199.70
      expect((await orderOf(result.body.orderId)).amount_cents).toBe(119970);
    });

    it("turns the tiers off with a coupon where the product says so: WELCOME10 on five is 10% off the list price only", async () => {
      const result = await checkout({
        productId: STUDIO,
        variantId: STUDIO_LIFETIME,
        quantity: 5,
        coupon: "WELCOME10",
      });
      if (!("orderId" in result.body)) throw new Error(result.body.error);
      // 149963 list, no tier: the cart the coupon is taken from is the list price, not the tier's 134967.
      expect(result.status).toBe(200);
      const studio = products.find((p) => p.id === STUDIO)!;
      expect(computeTotal(studio, findDuration(studio, "lifetime")!, 5, { coupon: "WELCOME10" })).toBe(149963);
      // 10% off 149963, half-up: 134966.7 → 134967.
      expect(await orderOf(result.body.orderId)).toEqual({ amount_cents: 134967, quantity: 5, coupon: "WELCOME10" });
    });

    it("refuses a quantity below the product's minimum or above its maximum, writing nothing", async () => {
      // A catalogue whose Capture Ultimate sells two keys at least (the content's `minQuantity`).
      const bounded = products.map((p) => (p.id === 447089 ? { ...p, minQuantity: 2 } : p));
      const result = await startCheckout(
        { db: database.handle.db, products: bounded, provider: demo() },
        checkoutRequestSchema.parse({
          productId: 447089,
          variantId: 653294,
          quantity: 1,
          altcha: await freshPayload(),
        }),
      );
      expect(result).toEqual({
        status: 400,
        body: { error: "quantity must be between 2 and 5 for this product" },
      });
      expect(await checkout({ productId: STUDIO, variantId: STUDIO_LIFETIME, quantity: 11 })).toEqual({
        status: 400,
        body: { error: "quantity must be between 1 and 10 for this product" },
      });
    });
  });

  describe("a connected shop (the emulator prices the cart on its own)", () => {
    let shopProducts: ReturnType<typeof productsFromShop>;
    beforeAll(async () => {
      const api = createSellAuthCatalogue({ apiBase: shop.url, shopId: shop.shopId, apiKey: shop.apiKey });
      const snapshot = await fetchShopSnapshot(api, new Date());
      shopProducts = productsFromShop(snapshot, overlay, site, { shopUrl: "https://kestrel.mysellauth.com" });
    });
    const checkout = async (body: Record<string, unknown>) => {
      const sellauth = createSellAuthProvider({ apiBase: shop.url, shopId: shop.shopId, apiKey: shop.apiKey, captcha });
      return startCheckout(
        { db: database.handle.db, products: shopProducts, provider: sellauth },
        checkoutRequestSchema.parse({ ...body, altcha: await freshPayload() }),
      );
    };
    const chargedFor = (invoiceUrl: string) => {
      const invoiceId = invoiceUrl.split("/").at(-1) ?? "";
      return shop.invoices.get(invoiceId)?.amountCents;
    };

    it("reads the tiers in both shapes, skipping the malformed entries, and the bounds", () => {
      const studio = shopProducts.find((p) => p.id === STUDIO);
      expect(studio?.volumeDiscounts).toEqual([
        { quantity: 5, percent: 10 },
        { quantity: 10, percent: 15 },
      ]);
      expect(studio?.disableVolumeDiscountsWithCoupon).toBe(true);
      expect(studio?.maxQuantity).toBe(10);
      const vault = shopProducts.find((p) => p.id === VAULT);
      expect(vault?.volumeDiscounts).toEqual([{ quantity: 3, percent: 5 }]);
      expect(vault?.disableVolumeDiscountsWithCoupon).toBeUndefined();
      expect(vault?.maxQuantity).toBe(5);
      expect(shopProducts.find((p) => p.id === 447089)?.minQuantity).toBe(2);
    });

    for (const [name, productId, variantId, quantity, coupon] of [
      ["five Studio Lifetime keys (10% off)", STUDIO, STUDIO_LIFETIME, 5, undefined],
      ["ten Studio Lifetime keys (15% off)", STUDIO, STUDIO_LIFETIME, 10, undefined],
      ["three Vault Lifetime keys ({qty, percent}: 5% off)", VAULT, VAULT_LIFETIME, 3, undefined],
      ["five Studio keys with a coupon (tiers off)", STUDIO, STUDIO_LIFETIME, 5, "SHOP15"],
      ["four Vault keys with a coupon (tiers kept)", VAULT, VAULT_LIFETIME, 4, "SHOP15"],
    ] as const) {
      it(`shows what the shop is asked to charge: ${name}`, async () => {
        const product = shopProducts.find((p) => p.id === productId)!;
        const duration = product.durations.find((d) => d.variantId === variantId)!;
        const result = await checkout({ productId, variantId, quantity, ...(coupon ? { coupon } : {}) });
        if (!("url" in result.body)) throw new Error(result.body.error);
        const beforeCoupon = computeTotal(product, duration, quantity, { coupon });
        const shown = coupon ? Math.floor((beforeCoupon * 85 + 50) / 100) : beforeCoupon;
        expect(chargedFor(result.body.url)).toBe(shown);
        if (!coupon) expect((await orderOf(result.body.orderId)).amount_cents).toBe(shown);
      });
    }

    it("refuses a quantity outside the shop's bounds before asking the shop", async () => {
      const asked = shop.requests.length;
      expect(await checkout({ productId: 447089, variantId: 653294, quantity: 1 })).toEqual({
        status: 400,
        body: { error: "quantity must be between 2 and 5 for this product" },
      });
      expect(shop.requests.length).toBe(asked);
    });
  });
});
