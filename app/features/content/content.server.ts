import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import {
  ContentError,
  checkLegalMarkdown,
  type DocsFile,
  type Download,
  docsFileSchema,
  downloadsFileSchema,
  type FaqItem,
  faqFileSchema,
  LEGAL_SLUGS,
  type LegalSlug,
  type PlansFile,
  parseContent,
  plansFileSchema,
  productsFileSchema,
  type Product,
  type Site,
  siteSchema,
} from "./content";
import { type ReviewsFile, reviewsFileSchema } from "./content";

export const statusFileSchema = z
  .array(z.object({ name: z.string().trim().min(1), status: z.string().trim().min(1), uptime: z.string().regex(/^\d{1,3}(\.\d+)?$/, { message: "expected an uptime percentage like 99.9" }) }))
  .min(1);

export interface Content {
  site: Site;
  products: Product[];
  status: z.infer<typeof statusFileSchema>;
  reviews: ReviewsFile;
  faq: FaqItem[];
  docs: DocsFile;
  downloads: Download[];
  plans: PlansFile;
  /** Markdown source of each legal page listed in site.json `legal`. */
  legal: Partial<Record<LegalSlug, string>>;
}

function readText(dir: string, name: string): string {
  try {
    return fs.readFileSync(path.join(dir, name), "utf8");
  } catch {
    throw new ContentError(`content/${name}: file is missing (looked in ${dir})`);
  }
}

function readJson(dir: string, name: string): unknown {
  const text = readText(dir, name);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ContentError(`content/${name}: not valid JSON (${(error as Error).message})`);
  }
}

/** Rules that span files: every reference must point at something that exists. */
export function checkCrossReferences(content: Content) {
  const errors: string[] = [];
  const ids = new Set(content.products.map((p) => p.id));
  const categories = new Set(content.site.categories.map((c) => c.value));
  content.site.legacyAliases.forEach((alias, i) => {
    if (!ids.has(alias.productId)) errors.push(`content/site.json: legacyAliases[${i}].productId: alias ${alias.path} points at no product (${alias.productId})`);
  });
  content.site.homeTiles.forEach((id, i) => {
    if (!ids.has(id)) errors.push(`content/site.json: homeTiles[${i}]: no product with id ${id}`);
  });
  content.products.forEach((p, i) => {
    if (!categories.has(p.category)) errors.push(`content/products.json: [${i}].category: expected one of ${[...categories].join(", ")} (from site.json categories)`);
  });
  const slugs = new Set(content.products.map((p) => p.slug));
  content.docs.products.forEach((doc, i) => {
    if (!slugs.has(doc.product)) errors.push(`content/docs.json: products[${i}].product: no product with slug "${doc.product}"`);
  });
  content.downloads.forEach((download, i) => {
    if (download.productId !== undefined && !ids.has(download.productId)) errors.push(`content/downloads.json: [${i}].productId: no product with id ${download.productId}`);
  });
  const listed = new Set(content.site.legal.map((page) => page.slug));
  for (const slug of LEGAL_SLUGS) if (!listed.has(slug)) errors.push(`content/site.json: legal: expected an entry for "${slug}" (the /${slug} page)`);
  for (const page of content.site.legal) {
    const markdown = content.legal[page.slug];
    if (markdown === undefined) errors.push(`content/legal/${page.slug}.md: file is missing`);
    else errors.push(...checkLegalMarkdown(`content/legal/${page.slug}.md`, markdown, content.site.company));
  }
  if (errors.length) throw new ContentError(errors.join("\n"));
}

export function loadContent(dir: string): Content {
  const content: Content = {
    site: parseContent("content/site.json", siteSchema, readJson(dir, "site.json")),
    products: parseContent("content/products.json", productsFileSchema, readJson(dir, "products.json")),
    status: parseContent("content/status.json", statusFileSchema, readJson(dir, "status.json")),
    reviews: parseContent("content/reviews.json", reviewsFileSchema, readJson(dir, "reviews.json")),
    faq: parseContent("content/faq.json", faqFileSchema, readJson(dir, "faq.json")),
    docs: parseContent("content/docs.json", docsFileSchema, readJson(dir, "docs.json")),
    downloads: parseContent("content/downloads.json", downloadsFileSchema, readJson(dir, "downloads.json")),
    plans: parseContent("content/plans.json", plansFileSchema, readJson(dir, "plans.json")),
    legal: {},
  };
  for (const page of content.site.legal) content.legal[page.slug] = readText(dir, `legal/${page.slug}.md`);
  checkCrossReferences(content);
  return content;
}

export const CONTENT_DIR = path.resolve(process.env.CONTENT_DIR ?? "content");

let cached: Content | undefined;

/** The shop's content, validated once per process (boot fails on a broken file). */
export function getContent(): Content {
  cached ??= loadContent(CONTENT_DIR);
  return cached;
}

export function getProduct(id: number): Product | undefined {
  return getContent().products.find((p) => p.id === id);
}
