import { setupI18n } from "@lingui/core";
import { describe, expect, it } from "vitest";
import {
  CHECKOUT_MESSAGES,
  checkoutAlert,
  onlyLeftMessage,
  TRANSLATED_CHECKOUT_MESSAGES,
  TRANSLATED_COUPON_MESSAGES,
} from "./checkout-messages";
import { COUPON_MESSAGES } from "./coupons";

// No catalogue loaded: every message shows its English source, as the English pages do.
const english = setupI18n({ locale: "en", messages: { en: {} } });

describe("checkoutAlert", () => {
  it("says each of our checkout and coupon texts exactly as the API says it in English", () => {
    for (const [key, text] of Object.entries(CHECKOUT_MESSAGES)) {
      expect(TRANSLATED_CHECKOUT_MESSAGES[key as keyof typeof CHECKOUT_MESSAGES].message).toBe(text);
      expect(checkoutAlert(text, english)).toBe(text);
    }
    for (const [key, text] of Object.entries(COUPON_MESSAGES)) {
      expect(TRANSLATED_COUPON_MESSAGES[key as keyof typeof COUPON_MESSAGES].message).toBe(text);
      expect(checkoutAlert(text, english)).toBe(text);
    }
  });

  it('says "Only 1 of this licence is left." and "Only 3 of this licence are left." as the API does', () => {
    for (const left of [1, 3]) expect(checkoutAlert(onlyLeftMessage(left), english)).toBe(onlyLeftMessage(left));
  });

  it("shows a text it does not know (a hosted shop's own refusal) as it came", () => {
    expect(checkoutAlert("Product is out of stock", english)).toBe("Product is out of stock");
  });
});
