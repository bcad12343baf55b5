import { z } from "zod";
import { imageSchema, nonEmpty, positiveNumber } from "~/features/content/content";
import { QUANTITY_CEILING } from "./catalog";

export const durationSchema = z.object({
  value: nonEmpty,
  label: nonEmpty,
  multiplier: positiveNumber,
  variantId: z.number({ message: "expected a variant id (integer) or null" }).int().positive().nullable(),
});
export type Duration = z.infer<typeof durationSchema>;


export const productSchema = z.object({
  id: z.number({ message: "expected a product id (integer)" }).int().positive(),
  slug: z.string().regex(/^[a-z0-9-]+$/, { message: "expected a lowercase slug" }),
  name: nonEmpty,
  price: positiveNumber,
  originalPrice: positiveNumber.optional(),
  category: nonEmpty,
  badges: z.array(nonEmpty).default([]),
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
  isFeatured: z.boolean().default(false),
  shopUrl: z.url({ message: "expected an absolute URL" }).nullable().default(null),
});
export type Product = z.infer<typeof productSchema>;

/** `content/products.json`: ids, variant ids (across products) and slugs are each unique, since carts and URLs name them. */
export const productsFileSchema = z.array(productSchema).superRefine((products, ctx) => {
  const seenIds = new Map<number, number>();
  const seenVariants = new Map<number, string>();
  products.forEach((p, i) => {
    if (seenIds.has(p.id)) {
      ctx.addIssue({ code: "custom", path: [i, "id"], message: `duplicate product id ${p.id} (also at [${seenIds.get(p.id)}])` });
    }
    seenIds.set(p.id, i);
    p.durations.forEach((d, j) => {
      if (d.variantId === null) return;
      const where = `[${i}].durations[${j}]`;
      const earlier = seenVariants.get(d.variantId);
      if (earlier) ctx.addIssue({ code: "custom", path: [i, "durations", j, "variantId"], message: `duplicate variant id ${d.variantId} (also at ${earlier})` });
      else seenVariants.set(d.variantId, where);
    });
  });
  const slugs = new Set<string>();
  products.forEach((p, i) => {
    if (slugs.has(p.slug)) ctx.addIssue({ code: "custom", path: [i, "slug"], message: `duplicate slug "${p.slug}"` });
    slugs.add(p.slug);
  });
});
