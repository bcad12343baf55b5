// Coupon codes as the buyer types them, and the demo shop's rules for them (a real shop applies its own).

/** What a coupon code may be: what the shop's codes are made of, and nothing that needs escaping. */
export const COUPON_CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const COUPON_CODE_MAX_LENGTH = 64;

/** Texts the buyer sees, word for word (the checkout tests pin them). */
export const COUPON_MESSAGES = {
  notValid: "This coupon code is not valid.",
  malformed: "Coupon codes are up to 64 letters, digits, hyphens or underscores.",
} as const;

export interface CouponRule {
  code: string;
  percentOff: number;
  expires?: string;
  productIds?: number[];
}

/** The coupon a code names, if it is still valid and applies to the product (codes match whatever their case). */
export function findApplicableCoupon<T extends CouponRule>(
  coupons: readonly T[],
  code: string,
  productId: number,
  now = new Date(),
): T | undefined {
  const coupon = coupons.find((c) => c.code.toLowerCase() === code.toLowerCase());
  if (!coupon) return undefined;
  // Valid through the whole expiry day, wherever the buyer is: the day ends at 23:59:59 UTC.
  if (coupon.expires && now.getTime() > Date.parse(`${coupon.expires}T23:59:59.999Z`)) return undefined;
  if (coupon.productIds && !coupon.productIds.includes(productId)) return undefined;
  return coupon;
}

/** The amount after `percentOff`, in whole cents rounded half-up (amounts are never negative). */
export function discountedCents(amountCents: number, percentOff: number): number {
  return Math.floor((amountCents * (100 - percentOff) + 50) / 100);
}
