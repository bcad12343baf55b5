import { CHECKOUT_MESSAGES, isSafeCheckoutUrl } from "./checkout-messages";

// checkout.ts holds zod schemas: they load with the first checkout (or when the pointer or focus reaches Purchase Now),
// not with the page.
export const loadCheckoutSchemas = () => import("./checkout");

export const CHECKOUT_ENDPOINT = "/api/checkout";
/** The widget on the product page solves the active provider's challenge (the demo shop's or the hosted shop's). */
export const CHECKOUT_CHALLENGE_URL = "/api/checkout/challenge";
/** The soft chime that reminds a buyer who has left the checkout open for a while. */
export const CHECKOUT_REMINDER_SOUND = "/sounds/checkout-chime.wav";
export const CHECKOUT_REMINDER_DELAY_MS = 13_000;

export type CheckoutOutcome =
  | { kind: "open"; url: string; orderId?: string; frameRefused?: true }
  | { kind: "alert"; message: string };

/** Asks our server for a checkout URL and turns every answer into "open this" or "tell the buyer this". */
export async function requestCheckout(
  input: {
    productId: number;
    variantId: number;
    quantity?: number;
    coupon?: string;
    altcha: string;
    /** The page's language, so a checkout page of ours (the demo shop's) speaks it too. */
    locale?: string;
  },
  fetchImpl: typeof fetch = fetch,
): Promise<CheckoutOutcome> {
  try {
    const response = await fetchImpl(CHECKOUT_ENDPOINT, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({
        productId: input.productId,
        variantId: input.variantId,
        quantity: input.quantity ?? 1,
        ...(input.coupon ? { coupon: input.coupon } : {}),
        altcha: input.altcha,
        ...(input.locale ? { locale: input.locale } : {}),
      }),
    });
    let data: unknown;
    try {
      data = await response.json();
    } catch {
      return { kind: "alert", message: CHECKOUT_MESSAGES.fallback };
    }
    const { checkoutResponseSchema } = await loadCheckoutSchemas();
    const parsed = checkoutResponseSchema.safeParse(data);
    if (!parsed.success) return { kind: "alert", message: CHECKOUT_MESSAGES.fallback };
    if (parsed.data.error) return { kind: "alert", message: parsed.data.error };
    if (!parsed.data.url || !isSafeCheckoutUrl(parsed.data.url))
      return { kind: "alert", message: CHECKOUT_MESSAGES.noUrl };
    const open: CheckoutOutcome = { kind: "open", url: parsed.data.url, orderId: parsed.data.orderId };
    return parsed.data.frameRefused ? { ...open, frameRefused: true } : open;
  } catch (error) {
    return {
      kind: "alert",
      message: error instanceof Error && error.message ? error.message : CHECKOUT_MESSAGES.fallback,
    };
  }
}
