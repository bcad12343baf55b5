// What the purchase button needs on first paint, apart from checkout.ts so that its zod schemas load only with a checkout.

/** Texts the buyer sees in an alert, word for word (the e2e and integration checkout tests pin them). */
export const CHECKOUT_MESSAGES = {
  captchaNotReady: "Captcha not ready. Please try again in a moment.",
  noUrl: "No checkout URL returned. Please try again.",
  fallback: "An error occurred during checkout",
  captchaRejected: "Captcha verification failed. Please try again.",
  soldOut: "This licence has just sold out.",
  noLongerSold: "This licence is no longer sold.",
} as const;

/** Fewer keys are left than the buyer asked for. */
export function onlyLeftMessage(left: number): string {
  return `Only ${left} of this licence ${left === 1 ? "is" : "are"} left.`;
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
