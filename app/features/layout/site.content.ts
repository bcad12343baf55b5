import { z } from "zod";
import { imageSchema, localPath, nonEmpty } from "~/features/content/content";
import { legalEntriesSchema } from "~/features/legal/legal.content";

export const linkSchema = z.object({ label: nonEmpty, href: nonEmpty });

/** `content/site.json`: the shop's name and copy around every page (header, footer, home, legal titles, old URLs). */
export const siteSchema = z.object({
  brand: nonEmpty,
  company: nonEmpty,
  tagline: nonEmpty,
  description: nonEmpty,
  badge: nonEmpty,
  community: z.object({ label: nonEmpty, url: z.url({ message: "expected an absolute URL" }) }),
  video: z.object({
    id: z.string().regex(/^[A-Za-z0-9_-]{6,20}$/, { message: "expected a YouTube video id" }),
    title: nonEmpty,
    poster: imageSchema,
  }),
  hero: z.object({ title: nonEmpty, subtitle: nonEmpty, image: imageSchema.optional() }),
  nav: z.array(linkSchema).min(1),
  categories: z.array(z.object({ value: z.string().regex(/^[a-z0-9-]+$/), label: nonEmpty })).min(1),
  /** Product cards per catalogue page. */
  catalogPageSize: z
    .number({ message: "expected a whole number of cards" })
    .int({ message: "expected a whole number of cards" })
    .min(1)
    .max(100)
    .default(24),
  sellingPoints: z.array(z.object({ title: nonEmpty, description: nonEmpty })).min(1),
  howItWorks: z.array(z.object({ title: nonEmpty, description: nonEmpty })).min(1),
  homeTiles: z.array(z.number().int().positive()).min(1),
  legacyAliases: z.array(z.object({ path: localPath, productId: z.number().int().positive() })).default([]),
  stats: z.object({ activeUsers: nonEmpty, licenseServers: nonEmpty }),
  /** The recent-sales notice (issue 36, docs/shop.md): off unless the owner turns it on. */
  recentSales: z.boolean({ message: "expected true or false" }).default(false),
  legal: legalEntriesSchema,
});
export type Site = z.infer<typeof siteSchema>;
