// The checkout's alerts in the page's language: loaded when the buyer heads for Purchase Now (purchase-button.tsx), since
// only a refused or failed checkout needs them.
import type { I18n, MessageDescriptor } from "@lingui/core";
import { msg, plural } from "@lingui/core/macro";
import { DEFAULT_LOCALE } from "~/features/i18n/locales";
import { DATABASE_UNAVAILABLE_MESSAGE, INTERNAL_ERROR_MESSAGE } from "~/platform/api-errors";
import { CHECKOUT_MESSAGES, SHOP_MESSAGES } from "./checkout-messages";
import { COUPON_MESSAGES } from "./coupons";

/** The same texts as interface messages; checkout-alert.test.ts checks each says what its English constant says. */
export const TRANSLATED_CHECKOUT_MESSAGES = {
  captchaNotReady: msg`Captcha not ready. Please try again in a moment.`,
  noUrl: msg`No checkout URL returned. Please try again.`,
  fallback: msg`An error occurred during checkout`,
  captchaRejected: msg`Captcha verification failed. Please try again.`,
  soldOut: msg`This licence has just sold out.`,
  noLongerSold: msg`This licence is no longer sold.`,
  tooManyAttempts: msg`Too many checkout attempts. Please wait a minute and try again.`,
  unknownProduct: msg({
    message: "Unknown product",
    comment: "Checkout refused: the shop no longer sells the product the page offered",
  }),
  unknownDuration: msg({
    message: "Unknown duration for this product",
    comment: "Checkout refused: the shop no longer sells the licence length the page offered",
  }),
} satisfies Record<keyof typeof CHECKOUT_MESSAGES, MessageDescriptor>;

export const TRANSLATED_COUPON_MESSAGES = {
  notValid: msg`This coupon code is not valid.`,
  malformed: msg`Coupon codes are up to 64 letters, digits, hyphens or underscores.`,
} satisfies Record<keyof typeof COUPON_MESSAGES, MessageDescriptor>;

type FixedShopMessage = Exclude<keyof typeof SHOP_MESSAGES, "notJson" | "failed">;

export const TRANSLATED_SHOP_MESSAGES = {
  timeout: msg`The shop did not answer in time. Please try again.`,
  unreachable: msg`Could not reach the shop. Please try again.`,
  badUrl: msg`The shop returned an invalid checkout URL. Please try again.`,
  busy: msg`The shop is busy right now. Please try again in a minute.`,
} satisfies Record<FixedShopMessage, MessageDescriptor>;

/** The database out of reach (503 from any API); an unexpected 500 says the checkout's own fallback instead. */
export const TRANSLATED_DATABASE_UNAVAILABLE = msg`The shop is briefly unavailable. Please try again in a minute.`;

/** Each translated message under the English text it says (the keys come from the translations). */
function byEnglishText<K extends string>(
  english: Readonly<Record<NoInfer<K>, string>>,
  translated: Readonly<Record<K, MessageDescriptor>>,
): Array<[string, MessageDescriptor]> {
  return (Object.keys(translated) as K[]).map((key) => [english[key], translated[key]]);
}

const translations = new Map<string, MessageDescriptor>([
  ...byEnglishText(CHECKOUT_MESSAGES, TRANSLATED_CHECKOUT_MESSAGES),
  ...byEnglishText(COUPON_MESSAGES, TRANSLATED_COUPON_MESSAGES),
  ...byEnglishText(SHOP_MESSAGES, TRANSLATED_SHOP_MESSAGES),
  [DATABASE_UNAVAILABLE_MESSAGE, TRANSLATED_DATABASE_UNAVAILABLE],
  [INTERNAL_ERROR_MESSAGE, TRANSLATED_CHECKOUT_MESSAGES.fallback],
]);

/** Our texts that carry a number, read back (the number as the API wrote it) into the message that says them. */
const TEXTS_WITH_A_NUMBER: ReadonlyArray<readonly [RegExp, (number: string, ...more: string[]) => MessageDescriptor]> =
  [
    [
      /^Only (\d+) of this licence (?:is|are) left\.$/,
      (left) => {
        const count = Number(left);
        return msg({
          message: plural(count, { one: "Only # of this licence is left.", other: "Only # of this licence are left." }),
          comment: "Checkout refused: fewer keys of the chosen licence are left than the buyer asked for",
        });
      },
    ],
    [
      /^quantity must be between ([2-9]|\d{2,}) and (\d+) for this product$/,
      (least, most) => {
        const minQuantity = Number(least);
        const maxQuantity = Number(most);
        return msg({
          message: `quantity must be between ${minQuantity} and ${maxQuantity} for this product`,
          comment: "Checkout refused: fewer or more keys asked for than the product allows at once",
        });
      },
    ],
    [
      /^quantity must be between 1 and (\d+) for this product$/,
      (most) => {
        const maxQuantity = Number(most);
        return msg({
          message: `quantity must be between 1 and ${maxQuantity} for this product`,
          comment: "Checkout refused: more keys asked for than the product allows at once",
        });
      },
    ],
    [
      /^The shop sent an unexpected answer \(HTTP (\d{3})\)\. Please try again\.$/,
      (status) =>
        msg({
          message: `The shop sent an unexpected answer (HTTP ${status}). Please try again.`,
          comment: "Checkout failed: the hosted shop answered something unreadable; {status} is an HTTP status code",
        }),
    ],
    [
      /^The shop could not start the checkout \(HTTP (\d{3})\)\. Please try again\.$/,
      (status) =>
        msg({
          message: `The shop could not start the checkout (HTTP ${status}). Please try again.`,
          comment: "Checkout failed: the hosted shop answered with an error; {status} is an HTTP status code",
        }),
    ],
  ];

/**
 * An alert for the buyer in the page's language: one of our own checkout texts (as the API or the page says it in
 * English) translated. Anything else (a hosted shop's own refusal, a browser's network error) is English as it came:
 * an alert cannot say its language, so on another language's page a sentence in that language introduces it.
 */
export function checkoutAlert(message: string, i18n: I18n): string {
  const known = translations.get(message);
  if (known) return i18n._(known);
  for (const [pattern, describe] of TEXTS_WITH_A_NUMBER) {
    const [, number, ...more] = pattern.exec(message) ?? [];
    if (number !== undefined) return i18n._(describe(number, ...more.filter((m) => m !== undefined)));
  }
  if (i18n.locale === DEFAULT_LOCALE) return message;
  const reason = message;
  return i18n._(
    msg({
      message: `The checkout could not be started: ${reason}`,
      comment: "Alert before a reason the shop (or the browser) gave in English, quoted as it came",
    }),
  );
}
