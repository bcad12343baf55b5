import { z } from "zod";
import { nonEmpty, reportDuplicates, siteOrAbsoluteHref } from "~/features/content/content";

export const DOC_ENTRY_TYPES = ["error", "warning", "info"] as const;

/** `content/docs.json`: troubleshooting entries per product (by slug), plus links to further resources. */
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
