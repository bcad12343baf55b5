import { z } from "zod";

export { type ReviewsFile, reviewsFileSchema } from "../reviews/reviews";

const nonEmpty = z.string().trim().min(1, { message: "expected a non-empty string" });
const positiveNumber = z.number({ message: "expected a positive number" }).positive({ message: "expected a positive number" });
const localPath = z.string().regex(/^\/[^\s]*$/, { message: "expected a site path starting with /" });

export const imageSchema = z.object({
  src: localPath,
  alt: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type Image = z.infer<typeof imageSchema>;

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
  isFeatured: z.boolean().default(false),
  shopUrl: z.url({ message: "expected an absolute URL" }).nullable().default(null),
});
export type Product = z.infer<typeof productSchema>;

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

export const linkSchema = z.object({ label: nonEmpty, href: nonEmpty });

export const siteSchema = z.object({
  brand: nonEmpty,
  company: nonEmpty,
  tagline: nonEmpty,
  description: nonEmpty,
  badge: nonEmpty,
  community: z.object({ label: nonEmpty, url: z.url({ message: "expected an absolute URL" }) }),
  video: z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{6,20}$/, { message: "expected a YouTube video id" }), title: nonEmpty, poster: imageSchema }),
  hero: z.object({ title: nonEmpty, subtitle: nonEmpty, image: imageSchema.optional() }),
  nav: z.array(linkSchema).min(1),
  categories: z.array(z.object({ value: z.string().regex(/^[a-z0-9-]+$/), label: nonEmpty })).min(1),
  sellingPoints: z.array(z.object({ title: nonEmpty, description: nonEmpty })).min(1),
  howItWorks: z.array(z.object({ title: nonEmpty, description: nonEmpty })).min(1),
  homeTiles: z.array(z.number().int().positive()).min(1),
  legacyAliases: z.array(z.object({ path: localPath, productId: z.number().int().positive() })).default([]),
  stats: z.object({ activeUsers: nonEmpty, licenseServers: nonEmpty }),
  legal: z.array(z.object({ slug: z.enum(["terms", "privacy", "refund", "dmca"]), title: nonEmpty, lastUpdated: z.iso.date({ message: "expected a date YYYY-MM-DD" }) })),
});
export type Site = z.infer<typeof siteSchema>;

const siteOrAbsoluteHref = z.string().regex(/^(\/[^\s]*|https:\/\/[^\s]+)$/, { message: "expected a site path starting with / or an https:// URL" });
const isoDate = z.iso.date({ message: "expected a date YYYY-MM-DD" });

/** Questions are shown in file order; ids become anchors (`/faq#refunds`). */
export const faqFileSchema = z
  .array(z.object({ id: z.string().regex(/^[a-z0-9-]+$/, { message: "expected a lowercase id" }), question: nonEmpty, answer: nonEmpty }))
  .min(1, { message: "expected at least one question" })
  .superRefine((items, ctx) => reportDuplicates(items, (q) => q.id, "id", "question id", ctx));
export type FaqItem = z.infer<typeof faqFileSchema>[number];

export const DOC_ENTRY_TYPES = ["error", "warning", "info"] as const;

export const docsFileSchema = z.object({
  intro: nonEmpty,
  products: z
    .array(
      z.object({
        product: z.string().regex(/^[a-z0-9-]+$/, { message: "expected a product slug" }),
        entries: z
          .array(
            z.object({
              title: nonEmpty,
              type: z.enum(DOC_ENTRY_TYPES, { message: "expected error, warning or info" }),
              description: nonEmpty,
              solution: z.array(nonEmpty).min(1, { message: "expected at least one solution step" }),
            }),
          )
          .min(1, { message: "expected at least one entry" }),
      }),
    )
    .min(1, { message: "expected at least one product" })
    .superRefine((items, ctx) => reportDuplicates(items, (p) => p.product, "product", "product", ctx)),
  resources: z.array(z.object({ label: nonEmpty, href: siteOrAbsoluteHref, description: nonEmpty })).default([]),
});
export type DocsFile = z.infer<typeof docsFileSchema>;
export type DocEntry = DocsFile["products"][number]["entries"][number];

export const DOWNLOAD_STATUSES = ["stable", "beta", "new"] as const;

export const downloadsFileSchema = z
  .array(
    z.object({
      id: z.string().regex(/^[a-z0-9-]+$/, { message: "expected a lowercase id" }),
      productId: z.number({ message: "expected a product id (integer)" }).int().positive().optional(),
      name: nonEmpty,
      version: nonEmpty,
      size: z.string().regex(/^\d+(\.\d+)? (KB|MB|GB)$/, { message: "expected a size like 48.2 MB" }),
      date: isoDate,
      status: z.enum(DOWNLOAD_STATUSES, { message: "expected stable, beta or new" }),
      description: nonEmpty,
      requirements: z.array(nonEmpty).min(1, { message: "expected at least one requirement" }),
      changelog: z.array(nonEmpty).min(1, { message: "expected at least one changelog line" }),
    }),
  )
  .min(1, { message: "expected at least one download" })
  .superRefine((items, ctx) => reportDuplicates(items, (d) => d.id, "id", "download id", ctx));
export type Download = z.infer<typeof downloadsFileSchema>[number];

export const plansFileSchema = z.object({
  intro: nonEmpty,
  includedInEveryPlan: z.array(nonEmpty).default([]),
  plans: z
    .array(
      z
        .object({
          id: z.string().regex(/^[a-z0-9-]+$/, { message: "expected a lowercase id" }),
          name: nonEmpty,
          price: z.string().regex(/^(\$\d+(\.\d{2})?(\/month)?|Custom)$/, { message: 'expected a price like "$60", "$175/month" or "Custom"' }),
          priceDetail: nonEmpty,
          description: nonEmpty,
          features: z.array(nonEmpty).min(1, { message: "expected at least one feature" }),
          custom: z.boolean().default(false),
          highlighted: z.boolean().default(false),
        })
        .refine((plan) => plan.custom === (plan.price === "Custom"), {
          path: ["price"],
          message: 'expected "Custom" exactly when the plan is marked custom',
        }),
    )
    .min(1, { message: "expected at least one plan" })
    .superRefine((items, ctx) => reportDuplicates(items, (p) => p.id, "id", "plan id", ctx)),
});
export type PlansFile = z.infer<typeof plansFileSchema>;
export type Plan = PlansFile["plans"][number];

export const LEGAL_SLUGS = ["terms", "privacy", "refund", "dmca"] as const;
export type LegalSlug = (typeof LEGAL_SLUGS)[number];

// Template leftovers such as "[Company Name]", "{{date}}", "TODO" or lorem ipsum must never ship.
const PLACEHOLDER = /\[(?:your|company|insert|date|name|address|email|phone)[^\]]*\]|\{\{|\bTODO\b|\bTBD\b|lorem ipsum|\bXX+\b/i;

/** Checks one legal Markdown file; returns problems as `content/legal/terms.md: ...` lines. */
export function checkLegalMarkdown(file: string, markdown: string, company: string): string[] {
  const problems: string[] = [];
  if (markdown.trim().length === 0) return [`${file}: expected Markdown text, got an empty file`];
  const placeholder = markdown.match(PLACEHOLDER);
  if (placeholder) problems.push(`${file}: contains the placeholder "${placeholder[0]}"`);
  if (!markdown.includes(company)) problems.push(`${file}: expected the company name "${company}" in the text`);
  return problems;
}

function reportDuplicates<T>(items: readonly T[], key: (item: T) => string, field: string, what: string, ctx: z.RefinementCtx) {
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    const value = key(item);
    const earlier = seen.get(value);
    if (earlier !== undefined) ctx.addIssue({ code: "custom", path: [i, field], message: `duplicate ${what} "${value}" (also at [${earlier}])` });
    else seen.set(value, i);
  });
}

/** Formats a zod path like `[2].durations[1].multiplier`. */
export function formatIssuePath(path: ReadonlyArray<PropertyKey>): string {
  return path
    .map((part, i) => (typeof part === "number" ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`))
    .join("");
}

export class ContentError extends Error {}

/** Validates one content file; errors read `content/products.json: [2].durations[1].multiplier: expected a positive number`. */
export function parseContent<T extends z.ZodType>(file: string, schema: T, data: unknown): z.infer<T> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const where = formatIssuePath(issue.path);
    return `${file}: ${where ? `${where}: ` : ""}${issue.message}`;
  });
  throw new ContentError(lines.join("\n"));
}
