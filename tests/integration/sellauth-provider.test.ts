import crypto from "node:crypto";
import type { Challenge } from "altcha-lib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCaptcha, type SpentPayloadStore } from "~/features/captcha/captcha.server";
import type { CheckoutCart } from "~/features/checkout/checkout";
import { createSellAuthProvider, refusesFraming } from "~/features/checkout/providers/sellauth.server";
import { solveCaptchaPayload } from "../support/captcha-solver";
import { type ShopEmulator, startShopEmulator } from "../fakes/shop-emulator";

const cart: CheckoutCart = {
  productId: 446891,
  productName: "Kestrel Sandbox",
  variantId: 653003,
  durationLabel: "1 Week",
  quantity: 1,
  amountCents: 1199,
};
const memoryStore = (): SpentPayloadStore => {
  const spent = new Set<string>();
  return { markSpent: async (signature) => !spent.has(signature) && Boolean(spent.add(signature)) };
};
const ownCaptcha = createCaptcha({
  hmacKey: crypto.randomBytes(32).toString("hex"),
  store: memoryStore(),
  counterRange: [20, 50],
});

describe("SellAuth provider against the shop emulator", () => {
  let shop: ShopEmulator;
  beforeAll(async () => {
    shop = await startShopEmulator();
  });
  afterAll(async () => {
    await shop.close();
  });
  beforeEach(() => {
    shop.setCheckoutMode({ kind: "url" });
    shop.requests.length = 0;
  });
  const storefront = (timeoutMs?: number) =>
    createSellAuthProvider({ apiBase: shop.url, shopId: shop.shopId, captcha: ownCaptcha, timeoutMs });
  const shopCaptcha = async () => {
    const challenge = await storefront().challenge();
    if ("error" in challenge) throw new Error(challenge.error);
    return solveCaptchaPayload(challenge.challenge as Challenge);
  };

  it("proxies the shop's ALTCHA challenge and starts a storefront checkout with {cart, shopId, altcha}", async () => {
    const altcha = await shopCaptcha();
    const result = await storefront().createCheckout(cart, altcha);
    expect(result).toEqual({ url: expect.stringMatching(new RegExp(`^${shop.url}/checkout/\\d+$`)) });
    const sent = shop.requests.find((r) => r.path === "/v1/checkout");
    expect(sent?.body).toEqual({
      cart: [{ productId: 446891, variantId: 653003, quantity: 1 }],
      shopId: 151480,
      altcha,
    });
    expect(sent?.headers.authorization).toBeUndefined();
  });

  it("passes the shop's own error text through, as a refusal of the buyer's input", async () => {
    shop.setCheckoutMode({ kind: "error", message: "Product is out of stock" });
    expect(await storefront().createCheckout(cart, "x")).toEqual({ error: "Product is out of stock", rejected: true });
  });

  it('says "No checkout URL returned. Please try again." when the answer has no url', async () => {
    shop.setCheckoutMode({ kind: "no-url" });
    expect(await storefront().createCheckout(cart, "x")).toEqual({
      error: "No checkout URL returned. Please try again.",
    });
  });

  it("turns a 500 and a non-JSON answer into clear errors", async () => {
    shop.setCheckoutMode({ kind: "500" });
    expect(await storefront().createCheckout(cart, "x")).toEqual({
      error: "The shop could not start the checkout (HTTP 500). Please try again.",
    });
    shop.setCheckoutMode({ kind: "not-json" });
    expect(await storefront().createCheckout(cart, "x")).toEqual({
      error: "The shop sent an unexpected answer (HTTP 502). Please try again.",
    });
  });

  it("gives up on a shop that does not answer within the timeout", async () => {
    shop.setCheckoutMode({ kind: "slow", delayMs: 2_000 });
    expect(await storefront(200).createCheckout(cart, "x")).toEqual({
      error: "The shop did not answer in time. Please try again.",
    });
  });

  it("reports an unreachable shop", async () => {
    const gone = createSellAuthProvider({ apiBase: "http://127.0.0.1:9", shopId: "151480", captcha: ownCaptcha });
    expect(await gone.createCheckout(cart, "x")).toEqual({ error: "Could not reach the shop. Please try again." });
  });

  describe("with an API key", () => {
    const api = () =>
      createSellAuthProvider({ apiBase: shop.url, shopId: shop.shopId, apiKey: shop.apiKey, captcha: ownCaptcha });

    it("serves our own challenge, verifies it once, and uses POST /v1/shops/{shopId}/checkout with the Bearer key", async () => {
      const challenge = await api().challenge();
      if ("error" in challenge) throw new Error(challenge.error);
      const altcha = await solveCaptchaPayload(challenge.challenge as Challenge);
      const result = await api().createCheckout(cart, altcha);
      if (!("url" in result)) throw new Error(result.error);
      expect(result.invoiceId).toMatch(/^\d+$/);
      const sent = shop.requests.find((r) => r.path === `/v1/shops/${shop.shopId}/checkout`);
      expect(sent?.headers.authorization).toBe(`Bearer ${shop.apiKey}`);
      expect(sent?.body).toEqual({ cart: [{ productId: 446891, variantId: 653003, quantity: 1 }] });
      expect(await api().createCheckout(cart, altcha)).toEqual({
        error: "Captcha verification failed. Please try again.",
        rejected: true,
      });
    });

    const solved = async () => solveCaptchaPayload(await ownCaptcha.issueChallenge());

    it("sends the buyer's address and user agent as ip and user_agent, and nothing else about the buyer", async () => {
      const result = await api().createCheckout(cart, await solved(), {
        ip: "::ffff:203.0.113.7",
        userAgent: "Mozilla/5.0 (X11; Linux x86_64)",
      });
      if (!("url" in result)) throw new Error(result.error);
      const sent = shop.requests.find((r) => r.path === `/v1/shops/${shop.shopId}/checkout`);
      expect(sent?.body).toEqual({
        cart: [{ productId: 446891, variantId: 653003, quantity: 1 }],
        ip: "203.0.113.7",
        user_agent: "Mozilla/5.0 (X11; Linux x86_64)",
      });
      await api().createCheckout(cart, await solved(), { ip: "not-an-address", userAgent: "  " });
      expect(shop.requests.filter((r) => r.path === `/v1/shops/${shop.shopId}/checkout`).at(-1)?.body).toEqual({
        cart: [{ productId: 446891, variantId: 653003, quantity: 1 }],
      });
    });

    it("frames the shop's invoice_url, not the gateway's url, and says nothing about framing when the page allows it", async () => {
      const result = await api().createCheckout(cart, await solved());
      if (!("url" in result)) throw new Error(result.error);
      expect(result.url).toMatch(new RegExp(`^${shop.url}/checkout/\\d+$`));
      expect(result.frameRefused).toBeUndefined();
    });

    it("falls back to url when there is no invoice_url, and marks a gateway page that refuses framing", async () => {
      shop.setCheckoutMode({ kind: "gateway-only" });
      const result = await createSellAuthProvider({
        apiBase: shop.url,
        shopId: shop.shopId,
        apiKey: shop.apiKey,
        captcha: ownCaptcha,
        publicUrl: "http://localhost:3000",
      }).createCheckout(cart, await solved());
      if (!("url" in result)) throw new Error(result.error);
      expect(result.url).toMatch(new RegExp(`^${shop.gatewayUrl}/pay/\\d+$`));
      expect(result.frameRefused).toBe(true);
    });

    it("reads a 429 as a busy shop, for checkouts and invoice lookups", async () => {
      shop.rateLimitNext(2, 7);
      expect(await api().createCheckout(cart, await solved())).toEqual({
        error: "The shop is busy right now. Please try again in a minute.",
      });
      expect(await api().lookupInvoice?.("1")).toEqual({ error: "Invoice lookup failed (HTTP 429)" });
    });

    it("keeps confirming and unknown statuses as the shop spelled them, read as pending", async () => {
      const result = await api().createCheckout(cart, await solved());
      if (!("invoiceId" in result) || !result.invoiceId) throw new Error("no invoice id");
      shop.setInvoiceStatus(result.invoiceId, "confirming");
      expect(await api().lookupInvoice?.(result.invoiceId)).toEqual({ outcome: "other", shopStatus: "confirming" });
      shop.setInvoiceStatus(result.invoiceId, "on_hold_review");
      expect(await api().lookupInvoice?.(result.invoiceId)).toEqual({ outcome: "other", shopStatus: "on_hold_review" });
    });

    it("looks invoices up for their real status", async () => {
      const result = await api().createCheckout(cart, await solveCaptchaPayload(await ownCaptcha.issueChallenge()));
      if (!("invoiceId" in result) || !result.invoiceId) throw new Error("no invoice id");
      const lookup = api().lookupInvoice;
      expect(await lookup?.(result.invoiceId)).toEqual({ outcome: "other", shopStatus: "pending" });
      shop.setInvoiceStatus(result.invoiceId, "completed");
      expect(await lookup?.(result.invoiceId)).toEqual({ outcome: "paid", shopStatus: "completed" });
      expect(await lookup?.("404404")).toEqual({ error: "Invoice lookup failed (HTTP 404)" });
    });
  });
});

describe("refusesFraming", () => {
  const page = "https://pay.example.com";
  const ours = "https://shop.example.org";
  const headers = (init: Record<string, string>) => new Headers(init);

  it("reads X-Frame-Options DENY, and SAMEORIGIN from another origin, as a refusal", () => {
    expect(refusesFraming(headers({ "X-Frame-Options": "DENY" }), page, ours)).toBe(true);
    expect(refusesFraming(headers({ "X-Frame-Options": "sameorigin" }), page, ours)).toBe(true);
    expect(refusesFraming(headers({}), page, ours)).toBe(false);
  });

  it("lets CSP frame-ancestors decide when present, as browsers do", () => {
    expect(
      refusesFraming(headers({ "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'" }), page, ours),
    ).toBe(true);
    expect(
      refusesFraming(
        headers({ "Content-Security-Policy": `frame-ancestors ${ours}/`, "X-Frame-Options": "DENY" }),
        page,
        ours,
      ),
    ).toBe(false);
    expect(refusesFraming(headers({ "Content-Security-Policy": "frame-ancestors *" }), page, ours)).toBe(false);
    expect(refusesFraming(headers({ "Content-Security-Policy": "frame-ancestors 'self'" }), page, ours)).toBe(true);
  });
});
