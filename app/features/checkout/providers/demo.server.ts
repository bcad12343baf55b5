import crypto from "node:crypto";
import type { Captcha } from "~/features/captcha/captcha.server";
import { DEFAULT_LOCALE, localizedPath } from "~/features/i18n/locales";
import { CHECKOUT_MESSAGES } from "../checkout-messages";
import type { CheckoutProvider } from "../checkout-provider";
import type { Coupon } from "../coupons.content";
import { COUPON_MESSAGES, discountedCents, findApplicableCoupon } from "../coupons";

/**
 * The built-in offline shop: our own captcha, coupons from content/coupons.json, and a local hosted-checkout page at
 * /demo-checkout/{invoiceId} (under the buyer's locale prefix: /de/demo-checkout/{invoiceId}).
 */
export function createDemoProvider(captcha: Captcha, coupons: () => readonly Coupon[] = () => []): CheckoutProvider {
  return {
    name: "demo",
    async challenge() {
      return { challenge: await captcha.issueChallenge() };
    },
    async createCheckout(cart, payload, buyer = {}) {
      const verdict = await captcha.verifyPayloadOnce(payload);
      if (!verdict.ok) return { error: CHECKOUT_MESSAGES.captchaRejected, rejected: true };
      // The captcha comes first, so guessing codes costs a proof of work each.
      const coupon = cart.coupon ? findApplicableCoupon(coupons(), cart.coupon, cart.productId) : undefined;
      if (cart.coupon && !coupon) return { error: COUPON_MESSAGES.notValid, rejected: true };
      const invoiceId = `demo-${crypto.randomUUID()}`;
      const url = localizedPath(`/demo-checkout/${invoiceId}`, buyer.locale ?? DEFAULT_LOCALE);
      return coupon
        ? { url, invoiceId, amountCents: discountedCents(cart.amountCents, coupon.percentOff) }
        : { url, invoiceId };
    },
  };
}

/** Letters and digits a buyer cannot mistake for one another when typing a key (no 0/O, 1/I/L). */
const KEY_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/** A demo licence key, `KESTREL-XXXX-XXXX-XXXX-XXXX`, from the system's random source (≈ 79 bits). */
export function generateDemoKey(): string {
  const groups = Array.from({ length: 4 }, () =>
    Array.from({ length: 4 }, () => KEY_ALPHABET[crypto.randomInt(KEY_ALPHABET.length)]).join(""),
  );
  return `KESTREL-${groups.join("-")}`;
}
