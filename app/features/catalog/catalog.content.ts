import { z } from "zod";
import { imageSchema, nonEmpty, positiveNumber, reportDuplicates } from "~/features/content/content";
import { QUANTITY_CEILING } from "./catalog";

export const durationSchema = z.object({
  value: nonEmpty,
  label: nonEmpty,
  multiplier: positiveNumber,
  /**
   * The licence's length in days (issue 45): 0 or absent is lifetime. A connected shop's duration reads it from the
   * variant's name; `null` is a length that could not be told (shown as such, never guessed).
   */
  days: z
    .number({ message: "expected a number of days (0 for lifetime)" })
    .int({ message: "expected a whole number of days" })
    .min(0, { message: "expected a number of days (0 for lifetime)" })
    .max(36_500, { message: "expected at most 36500 days" })
    .nullable()
    .optional(),
  variantId: z.number({ message: "expected a variant id (integer) or null" }).int().positive().nullable(),
  /** The shop's own price for this variant, in cents of the product's currency (a connected shop sets it). */
  priceCents: z.number().int().nonnegative().optional(),
  /** Keys left, as the shop counts them; absent when the shop does not count (or sells without limit). */
  stock: z.number().int().nonnegative().optional(),
});
export type Duration = z.infer<typeof durationSchema>;

/** One volume-discount tier: from `quantity` keys in one checkout, `percent` off the line (docs/shop.md). */
export const volumeTierSchema = z.object({
  quantity: z
    .number({ message: "expected a whole number of keys" })
    .int({ message: "expected a whole number of keys" })
    .min(2, { message: "expected at least 2 (a tier at 1 is a lower price, not a volume discount)" })
    .max(QUANTITY_CEILING, { message: `expected at most ${QUANTITY_CEILING}` }),
  percent: z
    .number({ message: "expected a percentage" })
    .gt(0, { message: "expected more than 0" })
    .lt(100, { message: "expected less than 100" }),
});
export type VolumeTier = z.infer<typeof volumeTierSchema>;

/** A tab under the description: a title and its text (plain paragraphs from the content, or the shop's sanitised HTML). */
export const productTabSchema = z.object({
  title: nonEmpty,
  /** Plain text from the content: each block between blank lines a paragraph. */
  text: z.string().optional(),
  /** The shop's tab content, sanitised on the server like its description (shop-catalogue.server.ts). */
  html: z.string().optional(),
});
export type ProductTab = z.infer<typeof productTabSchema>;

/** A badge with the owner's colour; the page checks its contrast and falls back to the theme's role colour. */
export const colouredBadgeSchema = z.object({
  label: nonEmpty,
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, { message: "expected a colour like #16a34a" })
    .optional(),
});
export type ColouredBadge = z.infer<typeof colouredBadgeSchema>;

export const productSchema = z.object({
  id: z.number({ message: "expected a product id (integer)" }).int().positive(),
  slug: z.string().regex(/^[a-z0-9-]+$/, { message: "expected a lowercase slug" }),
  name: nonEmpty,
  price: positiveNumber,
  originalPrice: positiveNumber.optional(),
  /** With a shop's struck-through price: the lowest price of the 30 days before the current one (EU rules). */
  lowestPrice30: positiveNumber.optional(),
  category: nonEmpty,
  /** Labels such as "New"; one may carry the owner's colour (`{"label": "Sale", "color": "#16a34a"}`). */
  badges: z.array(z.union([nonEmpty, colouredBadgeSchema])).default([]),
  /** A short status line on cards and the page ("Undetected", "Updating"), in the owner's colour when it reads well. */
  statusLine: z
    .object({
      text: nonEmpty,
      color: colouredBadgeSchema.shape.color,
    })
    .optional(),
  /** Tabs under the description (accessible tabs; every panel under its heading without JavaScript). */
  tabs: z.array(productTabSchema).max(10, { message: "expected at most 10 tabs" }).optional(),
  /** Ids of products offered with this one: "Often bought together" on the product page. */
  boughtTogether: z.array(z.number().int().positive()).max(8, { message: "expected at most 8 products" }).optional(),
  features: z.array(nonEmpty).default([]),
  description: nonEmpty,
  compatibility: z.array(nonEmpty).default([]),
  images: z.array(imageSchema).min(1, { message: "expected at least one image" }),
  cardImage: imageSchema,
  durations: z.array(durationSchema).min(1, { message: "expected at least one duration" }),
  /** Keys one checkout may buy; 1 shows no quantity control. */
  maxQuantity: z
    .number({ message: "expected a whole number of keys" })
    .int({ message: "expected a whole number of keys" })
    .min(1, { message: "expected at least 1" })
    .max(QUANTITY_CEILING, { message: `expected at most ${QUANTITY_CEILING}` })
    .default(1),
  /** Keys one checkout must buy at least (the shop's `quantity_min`); absent means 1. */
  minQuantity: z
    .number({ message: "expected a whole number of keys" })
    .int({ message: "expected a whole number of keys" })
    .min(1, { message: "expected at least 1" })
    .max(QUANTITY_CEILING, { message: `expected at most ${QUANTITY_CEILING}` })
    .optional(),
  /** Tiers of quantity and percentage off; the highest tier reached applies (pricing.ts `priceLine`). */
  volumeDiscounts: z
    .array(volumeTierSchema)
    .superRefine((tiers, ctx) => {
      const seen = new Set<number>();
      tiers.forEach((tier, i) => {
        if (seen.has(tier.quantity))
          ctx.addIssue({ code: "custom", path: [i, "quantity"], message: `duplicate tier at ${tier.quantity}` });
        seen.add(tier.quantity);
      });
    })
    .optional(),
  /** A coupon code in the checkout turns the volume discounts off (the shop's `disable_volume_discounts_if_coupon`). */
  disableVolumeDiscountsWithCoupon: z.boolean().optional(),
  isFeatured: z.boolean().default(false),
  shopUrl: z.url({ message: "expected an absolute URL" }).nullable().default(null),
  /** ISO 4217 code of the prices (the shop's currency). */
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, { message: "expected a currency code like USD" })
    .default("USD"),
  /** Keys sold, as the connected shop counts them (the `popular` sort). */
  sold: z.number().int().nonnegative().optional(),
  /** Keys sold in the owner's window ("3 sold in the last 24 hours"), counted from the shop's completed invoices. */
  recentSales: z.object({ count: z.number().int().positive(), hours: z.number().int().positive() }).optional(),
  /** The shop's own description, sanitised HTML, shown when the content adds no description of its own. */
  descriptionHtml: z.string().optional(),
  /** False when the shop hides stock counts: `Only 3 left` is not shown, `Sold out` still is. */
  showStockCount: z.boolean().default(true),
});
export type Product = z.infer<typeof productSchema>;

/**
 * An entry of `content/products.json` when the catalogue comes from the connected shop: keyed by the shop's product
 * id, it adds or replaces copy, features, compatibility, badges, category, images and the struck-through price. Ids,
 * variants, prices, stock and visibility always come from the shop, so any such field here is ignored.
 */
export const overlaySchema = productSchema.partial().extend({ id: productSchema.shape.id });
export type ProductOverlay = z.infer<typeof overlaySchema>;

export const overlayFileSchema = z
  .array(overlaySchema)
  .superRefine((entries, ctx) => reportDuplicates(entries, (e) => String(e.id), "id", "product id", ctx));

/** `content/products.json`: ids, variant ids (across products) and slugs are each unique, since carts and URLs name them. */
export const productsFileSchema = z.array(productSchema).superRefine((products, ctx) => {
  const seenIds = new Map<number, number>();
  const seenVariants = new Map<number, string>();
  products.forEach((p, i) => {
    if (seenIds.has(p.id)) {
      ctx.addIssue({
        code: "custom",
        path: [i, "id"],
        message: `duplicate product id ${p.id} (also at [${seenIds.get(p.id)}])`,
      });
    }
    seenIds.set(p.id, i);
    if (p.minQuantity !== undefined && p.minQuantity > p.maxQuantity)
      ctx.addIssue({
        code: "custom",
        path: [i, "minQuantity"],
        message: `minQuantity ${p.minQuantity} is above maxQuantity ${p.maxQuantity}`,
      });
    p.durations.forEach((d, j) => {
      if (d.variantId === null) return;
      const where = `[${i}].durations[${j}]`;
      const earlier = seenVariants.get(d.variantId);
      if (earlier)
        ctx.addIssue({
          code: "custom",
          path: [i, "durations", j, "variantId"],
          message: `duplicate variant id ${d.variantId} (also at ${earlier})`,
        });
      else seenVariants.set(d.variantId, where);
    });
  });
  const slugs = new Set<string>();
  products.forEach((p, i) => {
    if (slugs.has(p.slug)) ctx.addIssue({ code: "custom", path: [i, "slug"], message: `duplicate slug "${p.slug}"` });
    slugs.add(p.slug);
  });
});
