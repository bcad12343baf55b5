import net from "node:net";
import { z } from "zod";
import type { Captcha } from "~/features/captcha/captcha.server";
import type { InvoiceOutcome } from "~/features/orders/orders";
import { logger } from "~/platform/logger.server";
import type { CheckoutCart, CheckoutResult } from "../checkout";
import { CHECKOUT_MESSAGES, SHOP_MESSAGES } from "../checkout-messages";
import type { BuyerContext, CheckoutProvider, InvoiceLookup } from "../checkout-provider";

export const SHOP_TIMEOUT_MS = 10_000;

export interface SellAuthOptions {
  apiBase: string;
  shopId: string;
  /** With a key the documented server API is used, and buyers solve our own captcha instead of the shop's. */
  apiKey?: string;
  captcha: Captcha;
  timeoutMs?: number;
  /** Our own address, to read whether the checkout page lets us frame it. */
  publicUrl?: string;
}

/** A short look at the checkout page's headers; a page that does not answer in time is left to the modal's own timeout. */
const FRAMING_PROBE_TIMEOUT_MS = 3_000;

/** Whether a page's answer forbids being framed by `ourOrigin` (X-Frame-Options, or CSP frame-ancestors, which wins). */
export function refusesFraming(headers: Headers, pageOrigin: string, ourOrigin: string | undefined): boolean {
  const ancestors = headers
    .get("Content-Security-Policy")
    ?.split(";")
    .map((d) => d.trim().split(/\s+/))
    .find(([name]) => name?.toLowerCase() === "frame-ancestors")
    ?.slice(1);
  if (ancestors) {
    if (ancestors.includes("*")) return false;
    const allowed = ancestors.map((source) => (source === "'self'" ? pageOrigin : source.replace(/\/+$/, "")));
    return ourOrigin === undefined || !allowed.includes(ourOrigin);
  }
  const frameOptions = headers.get("X-Frame-Options")?.trim().toUpperCase();
  if (frameOptions === "DENY") return true;
  if (frameOptions === "SAMEORIGIN") return pageOrigin !== ourOrigin;
  return false;
}

const checkoutAnswerSchema = z
  .object({
    url: z.string().nullish(),
    invoice_url: z.string().nullish(),
    invoice_id: z.union([z.string(), z.number()]).nullish(),
    error: z.string().nullish(),
    message: z.string().nullish(),
  })
  .loose();

/** An ALTCHA challenge in either format the widget reads (v2 `parameters`, v1 `challenge`). */
const challengeAnswerSchema = z.union([
  z.object({ parameters: z.object({ algorithm: z.string() }).loose() }).loose(),
  z.object({ challenge: z.string(), algorithm: z.string() }).loose(),
]);

const invoiceAnswerSchema = z.object({ status: z.string() }).loose();

type ShopAnswer = { status: number; json: unknown } | { error: string };

export function createSellAuthProvider(options: SellAuthOptions): CheckoutProvider {
  const base = options.apiBase.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? SHOP_TIMEOUT_MS;
  const authHeaders: Record<string, string> = options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {};

  async function callShop(path: string, init: RequestInit = {}): Promise<ShopAnswer> {
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${base}${path}`, {
        ...init,
        headers: {
          Accept: "application/json",
          ...authHeaders,
          ...(init.body ? { "Content-Type": "application/json" } : {}),
        },
        signal: AbortSignal.timeout(timeoutMs),
        redirect: "error",
      });
      text = await response.text();
    } catch (error) {
      const timedOut = (error as Error).name === "TimeoutError" || (error as Error).name === "AbortError";
      logger.warn({ path: path.replace(/\/invoices\/.*/, "/invoices/:id"), timedOut }, "shop request failed");
      return { error: timedOut ? SHOP_MESSAGES.timeout : SHOP_MESSAGES.unreachable };
    }
    try {
      return { status: response.status, json: JSON.parse(text) };
    } catch {
      logger.warn({ path, status: response.status }, "shop answered with something other than JSON");
      return { error: SHOP_MESSAGES.notJson(response.status) };
    }
  }

  function toCheckoutResult(answer: ShopAnswer): CheckoutResult {
    if ("error" in answer) return answer;
    const parsed = checkoutAnswerSchema.safeParse(answer.json);
    if (!parsed.success)
      return { error: answer.status >= 400 ? SHOP_MESSAGES.failed(answer.status) : CHECKOUT_MESSAGES.noUrl };
    // A 429 is the shop pacing us (Retry-After), not a verdict on the buyer's cart.
    if (answer.status === 429) return { error: SHOP_MESSAGES.busy };
    const refused = answer.status >= 400 && answer.status < 500;
    // `error` is the storefront's answer; the documented API explains a refusal in `message` (a 5xx message is noise).
    const shopError = parsed.data.error ?? (refused ? parsed.data.message : undefined);
    if (shopError)
      return refused ? { error: shopError.slice(0, 300), rejected: true } : { error: shopError.slice(0, 300) };
    if (answer.status >= 400) return { error: SHOP_MESSAGES.failed(answer.status) };
    // invoice_url is the shop's own invoice page; url may be a payment gateway's page that refuses to be framed.
    const url = parsed.data.invoice_url || parsed.data.url;
    if (!url) return { error: CHECKOUT_MESSAGES.noUrl };
    let parsedUrl: URL;
    try {
      parsedUrl = new URL(url);
    } catch {
      return { error: SHOP_MESSAGES.badUrl };
    }
    if (parsedUrl.protocol !== "https:" && parsedUrl.protocol !== "http:") return { error: SHOP_MESSAGES.badUrl };
    const invoiceId = parsed.data.invoice_id;
    return invoiceId === undefined || invoiceId === null
      ? { url: parsedUrl.href }
      : { url: parsedUrl.href, invoiceId: String(invoiceId) };
  }

  /** Reads the checkout page's framing headers, so a gateway that refuses frames gets the new-tab link at once. */
  async function withFramingVerdict(result: CheckoutResult): Promise<CheckoutResult> {
    if ("error" in result) return result;
    try {
      const page = await fetch(result.url, {
        method: "GET",
        redirect: "manual",
        signal: AbortSignal.timeout(FRAMING_PROBE_TIMEOUT_MS),
        headers: { Accept: "text/html" },
      });
      await page.body?.cancel();
      const ourOrigin = options.publicUrl ? new URL(options.publicUrl).origin : undefined;
      if (page.status < 400 && refusesFraming(page.headers, new URL(result.url).origin, ourOrigin))
        return { ...result, frameRefused: true };
    } catch {
      // The browser will find out for itself; the modal falls back after its own timeout.
    }
    return result;
  }

  const wireCart = (cart: CheckoutCart) => [
    { productId: cart.productId, variantId: cart.variantId, quantity: cart.quantity },
  ];
  // The shop applies (or refuses, with its own message) the code; we never price it ourselves.
  const wireCoupon = (cart: CheckoutCart) => (cart.coupon ? { coupon: cart.coupon } : {});

  const provider: CheckoutProvider = {
    name: "sellauth",
    async challenge() {
      if (options.apiKey) return { challenge: await options.captcha.issueChallenge() };
      const answer = await callShop("/v1/altcha");
      if ("error" in answer) return answer;
      const parsed = challengeAnswerSchema.safeParse(answer.json);
      if (answer.status >= 400 || !parsed.success) return { error: SHOP_MESSAGES.failed(answer.status) };
      return { challenge: parsed.data };
    },
    async createCheckout(cart, captcha, buyer = {}) {
      if (options.apiKey) {
        const verdict = await options.captcha.verifyPayloadOnce(captcha);
        if (!verdict.ok) return { error: CHECKOUT_MESSAGES.captchaRejected, rejected: true };
        return withFramingVerdict(
          toCheckoutResult(
            await callShop(`/v1/shops/${encodeURIComponent(options.shopId)}/checkout`, {
              method: "POST",
              body: JSON.stringify({ cart: wireCart(cart), ...wireCoupon(cart), ...wireBuyer(buyer) }),
            }),
          ),
        );
      }
      return withFramingVerdict(
        toCheckoutResult(
          await callShop("/v1/checkout", {
            method: "POST",
            body: JSON.stringify({
              cart: wireCart(cart),
              ...wireCoupon(cart),
              shopId: Number(options.shopId),
              altcha: captcha,
            }),
          }),
        ),
      );
    },
  };
  if (options.apiKey) {
    provider.lookupInvoice = async (invoiceId: string): Promise<InvoiceLookup> => {
      const answer = await callShop(
        `/v1/shops/${encodeURIComponent(options.shopId)}/invoices/${encodeURIComponent(invoiceId)}`,
      );
      if ("error" in answer) return answer;
      const parsed = invoiceAnswerSchema.safeParse(answer.json);
      // The error makes the notification answer 502, so the shop delivers it again later (after any Retry-After).
      if (answer.status >= 400 || !parsed.success) return { error: `Invoice lookup failed (HTTP ${answer.status})` };
      const shopStatus = parsed.data.status.trim().slice(0, 64);
      return { outcome: classifyInvoiceStatus(shopStatus), shopStatus };
    };
  }
  return provider;
}

/** The documented `ip` (a valid address, IPv4-mapped IPv6 unwrapped) and `user_agent` fields for the shop's fraud checks. */
export function wireBuyer(buyer: BuyerContext): { ip?: string; user_agent?: string } {
  const wire: { ip?: string; user_agent?: string } = {};
  const ip = buyer.ip?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
  if (ip && net.isIP(ip)) wire.ip = ip;
  const userAgent = buyer.userAgent?.trim();
  if (userAgent) wire.user_agent = userAgent.slice(0, 512);
  return wire;
}

/** The statuses SellAuth's docs show; there is no official full list, so others are kept as-is and read as pending. */
const KNOWN_INVOICE_STATUSES = new Set([
  "pending",
  "confirming",
  "partially_completed",
  "completed",
  "paid",
  "processed",
  "refunded",
  "cancelled",
  "canceled",
  "expired",
  "failed",
]);
const reportedUnknownStatuses = new Set<string>();

/** SellAuth invoice statuses by what they mean for our order; an unknown one is logged once per process. */
export function classifyInvoiceStatus(status: string): InvoiceOutcome {
  const s = status.toLowerCase();
  if (["completed", "paid", "processed"].includes(s)) return "paid";
  if (s === "refunded") return "refunded";
  if (["cancelled", "canceled", "expired", "failed"].includes(s)) return "failed";
  if (!KNOWN_INVOICE_STATUSES.has(s) && !reportedUnknownStatuses.has(s) && reportedUnknownStatuses.size < 100) {
    reportedUnknownStatuses.add(s);
    logger.warn({ shopStatus: s }, "shop reported an invoice status we do not know; the order stays pending");
  }
  return "other";
}
