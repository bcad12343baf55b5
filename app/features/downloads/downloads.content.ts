import { z } from "zod";
import { isoDate, lowercaseId, nonEmpty, reportDuplicates } from "~/features/content/content";

export const DOWNLOAD_STATUSES = ["stable", "beta", "new"] as const;

/** `content/downloads.json`: one entry per installer, optionally tied to a product by id. */
export const downloadsFileSchema = z
  .array(
    z.object({
      id: lowercaseId,
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
