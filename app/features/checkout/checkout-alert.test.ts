import { setupI18n } from "@lingui/core";
import { describe, expect, it } from "vitest";
import { i18nFor } from "~/features/i18n/i18n.server";
import { DATABASE_UNAVAILABLE_MESSAGE, INTERNAL_ERROR_MESSAGE } from "~/platform/api-errors";
import {
  checkoutAlert,
  TRANSLATED_CHECKOUT_MESSAGES,
  TRANSLATED_COUPON_MESSAGES,
  TRANSLATED_DATABASE_UNAVAILABLE,
  TRANSLATED_SHOP_MESSAGES,
} from "./checkout-alert";
import { CHECKOUT_MESSAGES, onlyLeftMessage, quantityLimitMessage, SHOP_MESSAGES } from "./checkout-messages";
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

  it("says the hosted shop's failures, the quantity limit and an unreachable database exactly as the API says them in English", () => {
    for (const [key, descriptor] of Object.entries(TRANSLATED_SHOP_MESSAGES)) {
      const text = SHOP_MESSAGES[key as keyof typeof TRANSLATED_SHOP_MESSAGES];
      expect(descriptor.message).toBe(text);
      expect(checkoutAlert(text, english)).toBe(text);
    }
    for (const text of [
      SHOP_MESSAGES.notJson(502),
      SHOP_MESSAGES.failed(500),
      quantityLimitMessage(5),
      quantityLimitMessage(1),
      DATABASE_UNAVAILABLE_MESSAGE,
    ])
      expect(checkoutAlert(text, english)).toBe(text);
    expect(TRANSLATED_DATABASE_UNAVAILABLE.message).toBe(DATABASE_UNAVAILABLE_MESSAGE);
  });

  it('says an unexpected server error ("Internal error") as the checkout\'s own "An error occurred during checkout"', () => {
    expect(checkoutAlert(INTERNAL_ERROR_MESSAGE, english)).toBe(CHECKOUT_MESSAGES.fallback);
  });
});

describe("checkoutAlert on a German page", () => {
  const german = i18nFor("de");

  it("says every text of ours in German, never the API's English", () => {
    const ours = [
      ...Object.values(CHECKOUT_MESSAGES),
      ...Object.values(COUPON_MESSAGES),
      ...Object.values(SHOP_MESSAGES).filter((text) => typeof text === "string"),
      SHOP_MESSAGES.notJson(502),
      SHOP_MESSAGES.failed(500),
      onlyLeftMessage(1),
      onlyLeftMessage(3),
      quantityLimitMessage(5),
      DATABASE_UNAVAILABLE_MESSAGE,
      INTERNAL_ERROR_MESSAGE,
    ];
    for (const text of ours) {
      const shown = checkoutAlert(text, german);
      expect(shown, text).not.toBe(text);
      expect(shown, text).not.toMatch(/Please|licence|shop|checkout|quantity/);
    }
  });

  it("keeps the numbers: the keys left, the most keys at once, the shop's HTTP status", () => {
    expect(checkoutAlert(onlyLeftMessage(1), german)).toBe("Von dieser Lizenz ist nur noch 1 übrig.");
    expect(checkoutAlert(onlyLeftMessage(3), german)).toBe("Von dieser Lizenz sind nur noch 3 übrig.");
    expect(checkoutAlert(quantityLimitMessage(5), german)).toBe(
      "Die Menge muss bei diesem Produkt zwischen 1 und 5 liegen.",
    );
    expect(checkoutAlert(SHOP_MESSAGES.failed(503), german)).toBe(
      "Der Shop konnte die Kasse nicht öffnen (HTTP 503). Bitte versuchen Sie es erneut.",
    );
    expect(checkoutAlert(SHOP_MESSAGES.timeout, german)).toBe(
      "Der Shop hat nicht rechtzeitig geantwortet. Bitte versuchen Sie es erneut.",
    );
  });

  it("introduces a text it does not know (the shop's own refusal, a network error) in German and quotes it as it came", () => {
    expect(checkoutAlert("Product is out of stock", german)).toBe(
      "Die Kasse konnte nicht geöffnet werden: Product is out of stock",
    );
    expect(checkoutAlert("Failed to fetch", german)).toBe("Die Kasse konnte nicht geöffnet werden: Failed to fetch");
  });
});
