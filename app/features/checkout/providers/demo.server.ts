import crypto from "node:crypto";
import type { Captcha } from "~/features/captcha/captcha.server";
import { CHECKOUT_MESSAGES } from "../checkout";
import type { CheckoutProvider } from "../checkout-provider";

/** The built-in offline shop: our own captcha, and a local hosted-checkout page at /demo-checkout/{invoiceId}. */
export function createDemoProvider(captcha: Captcha): CheckoutProvider {
  return {
    name: "demo",
    async challenge() {
      return { challenge: await captcha.issueChallenge() };
    },
    async createCheckout(_cart, payload) {
      const verdict = await captcha.verifyPayloadOnce(payload);
      if (!verdict.ok) return { error: CHECKOUT_MESSAGES.captchaRejected, rejected: true };
      const invoiceId = `demo-${crypto.randomUUID()}`;
      return { url: `/demo-checkout/${invoiceId}`, invoiceId };
    },
  };
}
