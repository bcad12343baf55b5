import { z } from "zod";
import { computeTotal } from "~/features/catalog/pricing";
import { minQuantityOf, QUANTITY_CEILING } from "~/features/catalog/catalog";
import type { Duration, Product } from "~/features/catalog/catalog.content";
import { DEFAULT_LOCALE, isLocale, type Locale } from "~/features/i18n/locales";
import { CHECKOUT_MESSAGES, onlyLeftMessage, quantityLimitMessage } from "./checkout-messages";
import { COUPON_MESSAGES } from "./coupons";

export const MAX_QUANTITY = QUANTITY_CEILING;

/** What the browser sends to POST /api/checkout; prices are never part of it. */
export const checkoutRequestSchema = z.object({
  productId: z.coerce
    .number({ message: "productId must be a number" })
    .int()
    .positive({ message: "productId must be a positive integer" }),
  variantId: z.coerce
    .number({ message: "variantId must be a number" })
    .int()
    .positive({ message: "variantId must be a positive integer" }),
  quantity: z
    .number({ message: "quantity must be a number" })
    .int({ message: "quantity must be a whole number" })
    .min(1, { message: "quantity must be between 1 and 100" })
    .max(MAX_QUANTITY, { message: "quantity must be between 1 and 100" })
    .default(1),
  /** Passed to the shop, which decides; an empty field means no coupon. */
  coupon: z
    .string({ message: COUPON_MESSAGES.malformed })
    .trim()
    .regex(/^[A-Za-z0-9_-]{0,64}$/, { message: COUPON_MESSAGES.malformed })
    .optional(),
  altcha: z
    .string({ message: CHECKOUT_MESSAGES.captchaNotReady })
    .min(1, { message: CHECKOUT_MESSAGES.captchaNotReady })
    .max(4096),
  /** The language of the page the buyer is on, for the checkout page's words and links; anything else is English. */
  locale: z
    .unknown()
    .optional()
    .transform((value): Locale => (typeof value === "string" && isLocale(value) ? value : DEFAULT_LOCALE)),
});
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

/** One line of a checkout, resolved against our catalogue (our type; providers map it to their wire format). */
export interface CheckoutCart {
  productId: number;
  productName: string;
  variantId: number;
  durationLabel: string;
  quantity: number;
  /** Server-computed total for the line, in cents: list price less any volume discount, before any coupon. */
  amountCents: number;
  /** The code the buyer entered; the shop decides whether it applies. */
  coupon?: string;
}

/** `rejected`: the buyer's input was refused (bad captcha, cart the shop does not accept), not a shop failure. */
/** `frameRefused`: the page says it must not be framed (the modal offers a new tab instead). */
/** `amountCents`: what the shop will charge, when it says (after a coupon); the cart's list price otherwise. */
export type CheckoutResult =
  | { url: string; invoiceId?: string; frameRefused?: boolean; amountCents?: number }
  | { error: string; rejected?: boolean };

/** `soldOut`: the catalogue has too few keys left (409), rather than a request that names nothing we sell (400). */
export type CartResolution =
  | { cart: CheckoutCart; product: Product; duration: Duration }
  | { error: string; soldOut?: boolean };

/** Checks the request against the catalogue and prices it with computeTotal. */
export function resolveCart(products: readonly Product[], request: CheckoutRequest): CartResolution {
  const product = products.find((p) => p.id === request.productId);
  if (!product) return { error: CHECKOUT_MESSAGES.unknownProduct };
  const duration = product.durations.find((d) => d.variantId !== null && d.variantId === request.variantId);
  if (!duration || duration.variantId === null) return { error: CHECKOUT_MESSAGES.unknownDuration };
  const least = minQuantityOf(product);
  if (request.quantity > product.maxQuantity || request.quantity < least)
    return { error: quantityLimitMessage(product.maxQuantity, least) };
  if (duration.stock === 0) return { error: CHECKOUT_MESSAGES.soldOut, soldOut: true };
  if (duration.stock !== undefined && request.quantity > duration.stock)
    return { error: onlyLeftMessage(duration.stock), soldOut: true };
  return {
    product,
    duration,
    cart: {
      productId: product.id,
      productName: product.name,
      variantId: duration.variantId,
      durationLabel: duration.label,
      quantity: request.quantity,
      // Volume discounts included (and turned off by a coupon where the shop says so): the total the page showed.
      amountCents: computeTotal(product, duration, request.quantity, { coupon: request.coupon }),
      ...(request.coupon ? { coupon: request.coupon } : {}),
    },
  };
}

/** The answer of POST /api/checkout as the browser reads it. */
export const checkoutResponseSchema = z.object({
  url: z.string().optional(),
  orderId: z.string().optional(),
  frameRefused: z.boolean().optional(),
  error: z.string().optional(),
});
