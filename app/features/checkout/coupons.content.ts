import { z } from "zod";
import { isoDate, reportDuplicates } from "~/features/content/content";
import { COUPON_CODE_PATTERN } from "./coupons";

/** One coupon the demo shop accepts (a real shop keeps its own coupons; this file is only read by the demo shop). */
export const couponSchema = z
  .object({
    code: z.string().regex(COUPON_CODE_PATTERN, { message: "expected up to 64 letters, digits, '-' or '_'" }),
    percentOff: z
      .number({ message: "expected a whole percentage" })
      .int({ message: "expected a whole percentage" })
      .min(1)
      .max(100),
    /** Last day the code is accepted (UTC), inclusive. */
    expires: isoDate.optional(),
    /** Products the code applies to; every product when absent. */
    productIds: z
      .array(z.number().int().positive())
      .min(1, { message: "expected at least one product id, or no productIds" })
      .optional(),
  })
  .strict();
export type Coupon = z.infer<typeof couponSchema>;

export const couponsFileSchema = z
  .array(couponSchema)
  .superRefine((coupons, ctx) => reportDuplicates(coupons, (c) => c.code.toLowerCase(), "code", "coupon code", ctx));
