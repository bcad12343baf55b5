import { z } from "zod";
import type { Captcha } from "~/features/captcha/captcha.server";
import type { InvoiceOutcome } from "~/features/orders/orders";
import type { InvoiceLookup } from "~/features/orders/shop-notifications.server";
import { logger } from "~/server/logger.server";
import { CHECKOUT_MESSAGES, type CheckoutCart, type CheckoutResult } from "../checkout";
import type { CheckoutProvider } from "../checkout-provider";

export const SHOP_TIMEOUT_MS = 10_000;

export const SHOP_MESSAGES = {
  timeout: "The shop did not answer in time. Please try again.",
  unreachable: "Could not reach the shop. Please try again.",
  badUrl: "The shop returned an invalid checkout URL. Please try again.",
  notJson: (status: number) => `The shop sent an unexpected answer (HTTP ${status}). Please try again.`,
  failed: (status: number) => `The shop could not start the checkout (HTTP ${status}). Please try again.`,
} as const;

export interface SellAuthOptions {
  apiBase: string;
  shopId: string;
  /** With a key the documented server API is used, and buyers solve our own captcha instead of the shop's. */
  apiKey?: string;
  captcha: Captcha;
  timeoutMs?: number;
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
        headers: { Accept: "application/json", ...authHeaders, ...(init.body ? { "Content-Type": "application/json" } : {}) },
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
    if (!parsed.success) return { error: answer.status >= 400 ? SHOP_MESSAGES.failed(answer.status) : CHECKOUT_MESSAGES.noUrl };
    const refused = answer.status >= 400 && answer.status < 500;
    // `error` is the storefront's answer; the documented API explains a refusal in `message` (a 5xx message is noise).
    const shopError = parsed.data.error ?? (refused ? parsed.data.message : undefined);
    if (shopError) return refused ? { error: shopError.slice(0, 300), rejected: true } : { error: shopError.slice(0, 300) };
    if (answer.status >= 400) return { error: SHOP_MESSAGES.failed(answer.status) };
    const url = parsed.data.url ?? parsed.data.invoice_url;
    if (!url) return { error: CHECKOUT_MESSAGES.noUrl };
    let parsedUrl: URL;
    try {
      parsedUrl = new URL(url);
    } catch {
      return { error: SHOP_MESSAGES.badUrl };
    }
    if (parsedUrl.protocol !== "https:" && parsedUrl.protocol !== "http:") return { error: SHOP_MESSAGES.badUrl };
    const invoiceId = parsed.data.invoice_id;
    return invoiceId === undefined || invoiceId === null ? { url: parsedUrl.href } : { url: parsedUrl.href, invoiceId: String(invoiceId) };
  }

  const wireCart = (cart: CheckoutCart) => [{ productId: cart.productId, variantId: cart.variantId, quantity: cart.quantity }];

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
    async createCheckout(cart, captcha) {
      if (options.apiKey) {
        const verdict = await options.captcha.verifyPayloadOnce(captcha);
        if (!verdict.ok) return { error: CHECKOUT_MESSAGES.captchaRejected, rejected: true };
        return toCheckoutResult(
          await callShop(`/v1/shops/${encodeURIComponent(options.shopId)}/checkout`, { method: "POST", body: JSON.stringify({ cart: wireCart(cart) }) }),
        );
      }
      return toCheckoutResult(
        await callShop("/v1/checkout", { method: "POST", body: JSON.stringify({ cart: wireCart(cart), shopId: Number(options.shopId), altcha: captcha }) }),
      );
    },
  };
  if (options.apiKey) {
    provider.lookupInvoice = async (invoiceId: string): Promise<InvoiceLookup> => {
      const answer = await callShop(`/v1/shops/${encodeURIComponent(options.shopId)}/invoices/${encodeURIComponent(invoiceId)}`);
      if ("error" in answer) return answer;
      const parsed = invoiceAnswerSchema.safeParse(answer.json);
      if (answer.status >= 400 || !parsed.success) return { error: `Invoice lookup failed (HTTP ${answer.status})` };
      return { outcome: classifyInvoiceStatus(parsed.data.status) };
    };
  }
  return provider;
}

/** SellAuth invoice statuses by what they mean for our order. */
export function classifyInvoiceStatus(status: string): InvoiceOutcome {
  const s = status.toLowerCase();
  if (["completed", "paid", "processed"].includes(s)) return "paid";
  if (s === "refunded") return "refunded";
  if (["cancelled", "canceled", "expired", "failed"].includes(s)) return "failed";
  return "other";
}
