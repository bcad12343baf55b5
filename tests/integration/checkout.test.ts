import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Captcha, createCaptcha, databaseSpentPayloadStore } from "~/features/captcha/captcha.server";
import { checkoutRequestSchema } from "~/features/checkout/checkout";
import type { CheckoutProvider } from "~/features/checkout/checkout-provider";
import { startCheckout } from "~/features/checkout/checkout.server";
import { createDemoProvider } from "~/features/checkout/providers/demo.server";
import { createSellAuthProvider } from "~/features/checkout/providers/sellauth.server";
import { loadContent } from "~/features/content/content.server";
import { SHOP_COUPON_REFUSAL, type ShopEmulator, startShopEmulator } from "../fakes/shop-emulator";
import { solveCaptchaPayload } from "../support/captcha-solver";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";

const dialects = await testDialects();
const { products, coupons } = loadContent("content");
const HMAC_KEY = crypto.randomBytes(32).toString("hex");

describe.each(dialects)("checkout on %s", (dialect) => {
  let database: TestDatabase;
  let captcha: Captcha;
  let demo: CheckoutProvider;
  const checkout = (body: Record<string, unknown>) =>
    startCheckout({ db: database.handle.db, products, provider: demo }, checkoutRequestSchema.parse(body));
  const freshPayload = async () => solveCaptchaPayload(await captcha.issueChallenge());

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    captcha = createCaptcha({
      hmacKey: HMAC_KEY,
      store: databaseSpentPayloadStore(database.handle.db),
      counterRange: [50, 200],
    });
    demo = createDemoProvider(captcha, () => coupons);
  });
  afterAll(async () => {
    await database.drop();
  });

  it("records a pending order priced on the server: Kestrel Studio Lifetime is $299.93", async () => {
    const result = await checkout({ productId: 446894, variantId: 653023, altcha: await freshPayload() });
    expect(result.status).toBe(200);
    if (!("url" in result.body)) throw new Error(result.body.error);
    expect(result.body.url).toMatch(/^\/demo-checkout\/demo-[0-9a-f-]{36}$/);
    const order = await database.handle.db
      .selectFrom("orders")
      .selectAll()
      .where("id", "=", result.body.orderId)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      provider: "demo",
      product_id: 446894,
      variant_id: 653023,
      quantity: 1,
      amount_cents: 29993,
      status: "pending",
      completed_at: null,
    });
    expect(order.provider_invoice_id).toBe(result.body.url.split("/").at(-1));
  });

  it("opens the demo checkout in the buyer's language: /de/demo-checkout/… from a German page, English otherwise", async () => {
    const german = await checkout({ productId: 446894, variantId: 653023, altcha: await freshPayload(), locale: "de" });
    if (!("url" in german.body)) throw new Error(german.body.error);
    expect(german.body.url).toMatch(/^\/de\/demo-checkout\/demo-[0-9a-f-]{36}$/);
    for (const locale of ["en", "xx", "en-xa", "DE", 7, null]) {
      const other = await checkout({ productId: 446894, variantId: 653023, altcha: await freshPayload(), locale });
      if (!("url" in other.body)) throw new Error(other.body.error);
      expect(other.body.url, String(locale)).toMatch(/^\/demo-checkout\/demo-[0-9a-f-]{36}$/);
    }
  });

  it("never takes a price from the client", async () => {
    const result = await checkout({
      productId: 446889,
      variantId: 652997,
      quantity: 2,
      altcha: await freshPayload(),
      price: 0.01,
      amountCents: 1,
    });
    if (!("url" in result.body)) throw new Error(result.body.error);
    const order = await database.handle.db
      .selectFrom("orders")
      .select(["amount_cents", "quantity"])
      .where("id", "=", result.body.orderId)
      .executeTakeFirstOrThrow();
    // 14.99 × 2.000667 × 2 = 59.98…, half-up in exact decimals.
    expect(order).toEqual({ amount_cents: 5998, quantity: 2 });
  });

  it("prices several keys on the server and refuses more than the product allows, writing nothing for the refusal", async () => {
    // Kestrel Capture 1 Week (max 5): 19.99 × 3 = 59.97 (4.99 × 4.006 × 3 = 59.96982, half-up).
    const three = await checkout({ productId: 446893, variantId: 653010, quantity: 3, altcha: await freshPayload() });
    if (!("url" in three.body)) throw new Error(three.body.error);
    const order = await database.handle.db
      .selectFrom("orders")
      .select(["amount_cents", "quantity"])
      .where("id", "=", three.body.orderId)
      .executeTakeFirstOrThrow();
    expect(order).toEqual({ amount_cents: 5997, quantity: 3 });
    const before = await database.handle.db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(await checkout({ productId: 446893, variantId: 653010, quantity: 6, altcha: await freshPayload() })).toEqual(
      {
        status: 400,
        body: { error: "quantity must be between 1 and 5 for this product" },
      },
    );
    // Kestrel Studio sells up to ten keys per checkout.
    expect(
      await checkout({ productId: 446894, variantId: 653023, quantity: 11, altcha: await freshPayload() }),
    ).toEqual({
      status: 400,
      body: { error: "quantity must be between 1 and 10 for this product" },
    });
    const after = await database.handle.db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("sends the quantity in the cart the shop receives", async () => {
    const shop: ShopEmulator = await startShopEmulator();
    try {
      const sellauth = createSellAuthProvider({ apiBase: shop.url, shopId: shop.shopId, apiKey: shop.apiKey, captcha });
      const result = await startCheckout(
        { db: database.handle.db, products, provider: sellauth },
        checkoutRequestSchema.parse({
          productId: 446893,
          variantId: 653010,
          quantity: 3,
          altcha: await freshPayload(),
        }),
      );
      expect(result.status).toBe(200);
      const sent = shop.requests.find((r) => r.path === `/v1/shops/${shop.shopId}/checkout`);
      expect(sent?.body).toMatchObject({ cart: [{ productId: 446893, variantId: 653010, quantity: 3 }] });
    } finally {
      await shop.close();
    }
  });

  it("records the demo shop's discounted amount and the code for a valid coupon (WELCOME10 on Studio Lifetime: $269.94)", async () => {
    const result = await checkout({
      productId: 446894,
      variantId: 653023,
      coupon: " welcome10 ",
      altcha: await freshPayload(),
    });
    if (!("url" in result.body)) throw new Error(result.body.error);
    const order = await database.handle.db
      .selectFrom("orders")
      .select(["amount_cents", "coupon"])
      .where("id", "=", result.body.orderId)
      .executeTakeFirstOrThrow();
    expect(order).toEqual({ amount_cents: 26994, coupon: "welcome10" });
  });

  it('refuses an unknown, expired or other product\'s coupon with "This coupon code is not valid.", writing nothing', async () => {
    const before = await database.handle.db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    for (const coupon of ["NOPE", "SPRING2024", "PRESETS25"]) {
      expect(await checkout({ productId: 446894, variantId: 653023, coupon, altcha: await freshPayload() })).toEqual({
        status: 422,
        body: { error: "This coupon code is not valid." },
      });
    }
    const after = await database.handle.db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("sends the coupon to the shop, and shows the shop's own words when it refuses one", async () => {
    const shop: ShopEmulator = await startShopEmulator();
    try {
      const sellauth = createSellAuthProvider({ apiBase: shop.url, shopId: shop.shopId, apiKey: shop.apiKey, captcha });
      const start = async (coupon: string) =>
        startCheckout(
          { db: database.handle.db, products, provider: sellauth },
          checkoutRequestSchema.parse({
            productId: 447097,
            variantId: 653305,
            quantity: 2,
            coupon,
            altcha: await freshPayload(),
          }),
        );
      expect((await start("SHOP15")).status).toBe(200);
      const sent = shop.requests.find((r) => r.path === `/v1/shops/${shop.shopId}/checkout`);
      expect(sent?.body).toMatchObject({
        cart: [{ productId: 447097, variantId: 653305, quantity: 2 }],
        coupon: "SHOP15",
      });
      expect(await start("WELCOME10")).toEqual({ status: 422, body: { error: SHOP_COUPON_REFUSAL } });
    } finally {
      await shop.close();
    }
  });

  it("rejects a product that is not in the catalogue, and a variant of another product, writing nothing", async () => {
    const before = await database.handle.db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(await checkout({ productId: 999999, variantId: 653023, altcha: await freshPayload() })).toEqual({
      status: 400,
      body: { error: "Unknown product" },
    });
    expect(await checkout({ productId: 446889, variantId: 653023, altcha: await freshPayload() })).toEqual({
      status: 400,
      body: { error: "Unknown duration for this product" },
    });
    const after = await database.handle.db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("rejects a captcha payload used a second time with 422", async () => {
    const payload = await freshPayload();
    expect((await checkout({ productId: 446891, variantId: 653002, altcha: payload })).status).toBe(200);
    expect(await checkout({ productId: 446891, variantId: 653002, altcha: payload })).toEqual({
      status: 422,
      body: { error: "Captcha verification failed. Please try again." },
    });
  });

  it("accepts a payload once even across app instances sharing the database, and under concurrency", async () => {
    const second = database.open();
    const otherInstance = createCaptcha({ hmacKey: HMAC_KEY, store: databaseSpentPayloadStore(second.db) });
    const payload = await freshPayload();
    const verdicts = await Promise.all([
      captcha.verifyPayloadOnce(payload),
      otherInstance.verifyPayloadOnce(payload),
      captcha.verifyPayloadOnce(payload),
    ]);
    expect(verdicts.filter((v) => v.ok)).toHaveLength(1);
    expect(verdicts.filter((v) => !v.ok && v.reason === "reused")).toHaveLength(2);
  });

  it("rejects malformed, tampered and foreign payloads", async () => {
    expect(await captcha.verifyPayloadOnce("not base64 json")).toEqual({ ok: false, reason: "malformed" });
    const decoded = JSON.parse(Buffer.from(await freshPayload(), "base64").toString());
    decoded.solution.derivedKey = decoded.solution.derivedKey.replace(/^./, (c: string) => (c === "0" ? "1" : "0"));
    expect(await captcha.verifyPayloadOnce(Buffer.from(JSON.stringify(decoded)).toString("base64"))).toEqual({
      ok: false,
      reason: "invalid",
    });
    const foreign = createCaptcha({
      hmacKey: crypto.randomBytes(32).toString("hex"),
      store: databaseSpentPayloadStore(database.handle.db),
      counterRange: [10, 20],
    });
    expect(await captcha.verifyPayloadOnce(await solveCaptchaPayload(await foreign.issueChallenge()))).toEqual({
      ok: false,
      reason: "invalid",
    });
  });
});

describe("checkout request validation", () => {
  it("defaults quantity to 1 and keeps it within 1–100", () => {
    expect(checkoutRequestSchema.parse({ productId: 1, variantId: 2, altcha: "x" }).quantity).toBe(1);
    for (const quantity of [0, 101, 1.5, "3"]) {
      expect(checkoutRequestSchema.safeParse({ productId: 1, variantId: 2, altcha: "x", quantity }).success).toBe(
        false,
      );
    }
    expect(checkoutRequestSchema.safeParse({ productId: 1, variantId: 2, altcha: "x", quantity: 100 }).success).toBe(
      true,
    );
  });

  it("takes a coupon of up to 64 letters, digits, '-' or '_', trimmed; a blank one is no coupon", () => {
    expect(checkoutRequestSchema.parse({ productId: 1, variantId: 2, altcha: "x", coupon: " SAVE_10-x " }).coupon).toBe(
      "SAVE_10-x",
    );
    expect(checkoutRequestSchema.parse({ productId: 1, variantId: 2, altcha: "x", coupon: "" }).coupon).toBe("");
    for (const coupon of ["TEN OFF", "A".repeat(65), "<script>", 10]) {
      const result = checkoutRequestSchema.safeParse({ productId: 1, variantId: 2, altcha: "x", coupon });
      expect(result.error?.issues[0]?.message).toBe(
        "Coupon codes are up to 64 letters, digits, hyphens or underscores.",
      );
    }
  });

  it("requires a captcha payload", () => {
    const result = checkoutRequestSchema.safeParse({ productId: 1, variantId: 2 });
    expect(result.success).toBe(false);
  });
});
