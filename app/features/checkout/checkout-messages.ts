// What the purchase button needs on first paint, apart from checkout.ts so that its zod schemas load only with a checkout.
import type { I18n, MessageDescriptor } from "@lingui/core";
import { msg, plural } from "@lingui/core/macro";
import { COUPON_MESSAGES } from "./coupons";

/**
 * Texts the buyer sees in an alert, word for word in English (the e2e and integration checkout tests pin them): the
 * checkout API answers with them in English, and the page shows them in its own language (checkoutAlert).
 */
export const CHECKOUT_MESSAGES = {
  captchaNotReady: "Captcha not ready. Please try again in a moment.",
  noUrl: "No checkout URL returned. Please try again.",
  fallback: "An error occurred during checkout",
  captchaRejected: "Captcha verification failed. Please try again.",
  soldOut: "This licence has just sold out.",
  noLongerSold: "This licence is no longer sold.",
  tooManyAttempts: "Too many checkout attempts. Please wait a minute and try again.",
} as const;

/** Fewer keys are left than the buyer asked for (the API's English; checkoutAlert says it with the language's plurals). */
export function onlyLeftMessage(left: number): string {
  return `Only ${left} of this licence ${left === 1 ? "is" : "are"} left.`;
}

const ONLY_LEFT = /^Only (\d+) of this licence (?:is|are) left\.$/;

/** The same texts as interface messages; checkout-messages.test.ts checks each says what its English constant says. */
export const TRANSLATED_CHECKOUT_MESSAGES = {
  captchaNotReady: msg`Captcha not ready. Please try again in a moment.`,
  noUrl: msg`No checkout URL returned. Please try again.`,
  fallback: msg`An error occurred during checkout`,
  captchaRejected: msg`Captcha verification failed. Please try again.`,
  soldOut: msg`This licence has just sold out.`,
  noLongerSold: msg`This licence is no longer sold.`,
  tooManyAttempts: msg`Too many checkout attempts. Please wait a minute and try again.`,
} satisfies Record<keyof typeof CHECKOUT_MESSAGES, MessageDescriptor>;

export const TRANSLATED_COUPON_MESSAGES = {
  notValid: msg`This coupon code is not valid.`,
  malformed: msg`Coupon codes are up to 64 letters, digits, hyphens or underscores.`,
} satisfies Record<keyof typeof COUPON_MESSAGES, MessageDescriptor>;

const translations = new Map<string, MessageDescriptor>([
  ...Object.entries(TRANSLATED_CHECKOUT_MESSAGES).map(
    ([key, descriptor]) => [CHECKOUT_MESSAGES[key as keyof typeof CHECKOUT_MESSAGES], descriptor] as const,
  ),
  ...Object.entries(TRANSLATED_COUPON_MESSAGES).map(
    ([key, descriptor]) => [COUPON_MESSAGES[key as keyof typeof COUPON_MESSAGES], descriptor] as const,
  ),
]);

/**
 * An alert for the buyer in the page's language: one of our own checkout texts (as the API or the page says it in
 * English) translated, anything else (a hosted shop's own refusal) as it came.
 */
export function checkoutAlert(message: string, i18n: I18n): string {
  const known = translations.get(message);
  if (known) return i18n._(known);
  const left = ONLY_LEFT.exec(message)?.[1];
  if (left === undefined) return message;
  const count = Number(left);
  return i18n._(
    msg({
      message: plural(count, { one: "Only # of this licence is left.", other: "Only # of this licence are left." }),
      comment: "Checkout refused: fewer keys of the chosen licence are left than the buyer asked for",
    }),
  );
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
