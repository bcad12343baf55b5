// What the purchase button needs on first paint, apart from checkout.ts so that its zod schemas load only with a checkout,
// and from checkout-alert.ts so that the alerts' translations load only when the buyer heads for the button.

/**
 * Texts the buyer sees in an alert, word for word in English (the e2e and integration checkout tests pin them): the
 * checkout API answers with them in English, and the page shows them in its own language (checkout-alert.ts).
 */
export const CHECKOUT_MESSAGES = {
  captchaNotReady: "Captcha not ready. Please try again in a moment.",
  noUrl: "No checkout URL returned. Please try again.",
  fallback: "An error occurred during checkout",
  captchaRejected: "Captcha verification failed. Please try again.",
  soldOut: "This licence has just sold out.",
  noLongerSold: "This licence is no longer sold.",
  tooManyAttempts: "Too many checkout attempts. Please wait a minute and try again.",
  unknownProduct: "Unknown product",
  unknownDuration: "Unknown duration for this product",
} as const;

/** The hosted shop failing rather than refusing, as the SellAuth provider says it (its tests pin the words). */
export const SHOP_MESSAGES = {
  timeout: "The shop did not answer in time. Please try again.",
  unreachable: "Could not reach the shop. Please try again.",
  badUrl: "The shop returned an invalid checkout URL. Please try again.",
  busy: "The shop is busy right now. Please try again in a minute.",
  notJson: (status: number) => `The shop sent an unexpected answer (HTTP ${status}). Please try again.`,
  failed: (status: number) => `The shop could not start the checkout (HTTP ${status}). Please try again.`,
} as const;

/** Fewer keys are left than the buyer asked for (the API's English; checkout-alert.ts says it with the language's plurals). */
export function onlyLeftMessage(left: number): string {
  return `Only ${left} of this licence ${left === 1 ? "is" : "are"} left.`;
}

/** The buyer asked for more keys than the product allows at once (its maximum may have changed since the page loaded). */
export function quantityLimitMessage(maxQuantity: number, minQuantity = 1): string {
  return `quantity must be between ${minQuantity} and ${maxQuantity} for this product`;
}

/** A checkout URL is only followed when it is our own path or an http(s) URL (never javascript: or data:). */
export function isSafeCheckoutUrl(url: string): boolean {
  if (url.startsWith("/") && !url.startsWith("//")) return true;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:";
  } catch {
    return false;
  }
}
