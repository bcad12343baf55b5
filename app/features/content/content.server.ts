import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { overlayFileSchema, type ProductOverlay, productsFileSchema } from "~/features/catalog/catalog.content";
import { couponsFileSchema } from "~/features/checkout/coupons.content";
import { currenciesFileSchema } from "~/features/currency/currencies.content";
import { docsFileSchema } from "~/features/docs/docs.content";
import { downloadsFileSchema } from "~/features/downloads/downloads.content";
import { faqFileSchema } from "~/features/faq/faq.content";
import { siteSchema } from "~/features/layout/site.content";
import { checkLegalMarkdown } from "~/features/legal/legal.content";
import { LEGAL_SLUGS, type LegalSlug, legalPage } from "~/features/legal/legal-pages";
import { plansFileSchema } from "~/features/reseller/reseller.content";
import { reviewsFileSchema } from "~/features/reviews/reviews.content";
import { demoHistorySchema, statusFileSchema } from "~/features/status/status.content";
import { missingBrandFiles } from "~/features/theme/brand-assets.server";
import { themeContrastProblems } from "~/features/theme/contrast";
import { themeSchema } from "~/features/theme/theme.content";
import { type AnyLocale, DEFAULT_LOCALE, LOCALE_CODES, PSEUDO_LOCALE } from "~/features/i18n/locales";
import { pseudoLocalize } from "~/features/i18n/pseudo-locale";
import { getEnv } from "~/platform/env.server";
import { ContentError, parseContent } from "./content";
import { mapText, overlayTranslation, type TranslationReport } from "./localized-content";

/** Every JSON file in content/ and the schema its feature owns, validated in this order. */
const CONTENT_FILES = {
  site: { file: "site.json", schema: siteSchema },
  products: { file: "products.json", schema: productsFileSchema },
  status: { file: "status.json", schema: statusFileSchema },
  // Demo data only: 90 days of made-up history so a fresh demo shows bars (docs/status.md); a real shop deletes it.
  statusHistory: { file: "status-history.demo.json", schema: demoHistorySchema.nullable(), whenMissing: null },
  reviews: { file: "reviews.json", schema: reviewsFileSchema },
  faq: { file: "faq.json", schema: faqFileSchema },
  docs: { file: "docs.json", schema: docsFileSchema },
  downloads: { file: "downloads.json", schema: downloadsFileSchema },
  plans: { file: "plans.json", schema: plansFileSchema },
  // Only the demo shop reads coupons; a shop without the file has none.
  coupons: { file: "coupons.json", schema: couponsFileSchema, whenMissing: [] },
  // Without rates a shop shows prices only in the currency it charges.
  currencies: { file: "currencies.json", schema: currenciesFileSchema.nullable(), whenMissing: null },
  // The shop's colours, radius, logo and font (docs/theming.md); a theme that would be hard to read does not start.
  theme: { file: "theme.json", schema: themeSchema },
} as const;

type ContentFiles = typeof CONTENT_FILES;

export type Content = { [K in keyof ContentFiles]: z.infer<ContentFiles[K]["schema"]> } & {
  /** Markdown source of each legal page listed in site.json `legal`. */
  legal: Partial<Record<LegalSlug, string>>;
  /**
   * With a connected shop (`CATALOG_SOURCE=sellauth`), products.json only adds copy to the shop's products: it is read
   * as this overlay and `products` is empty (the catalogue comes from the shop).
   */
  overlay: ProductOverlay[];
};

export interface LoadContentOptions {
  /** Where products come from: with `sellauth`, products.json is the overlay of the shop's products. */
  catalogSource?: "content" | "sellauth";
  /** The published overrides laid over the files (none: the files alone, as `npm run build` checks them). */
  overrides?: ContentOverrides;
}

/**
 * What the owner published on top of the files (issue 44, docs/content.md), by the file's path inside content/
 * (`faq.json`, `locales/de/faq.json`, `legal/terms.md`): each replaces that file's text, and is checked exactly as the
 * file would be.
 */
export type ContentOverrides = ReadonlyMap<string, string>;
const NO_OVERRIDES: ContentOverrides = new Map();

/** The file's text (an override's where there is one), or undefined when neither exists. */
export function readContentFile(dir: string, name: string, overrides: ContentOverrides = NO_OVERRIDES) {
  const override = overrides.get(name);
  if (override !== undefined) return override;
  try {
    return fs.readFileSync(path.join(dir, name), "utf8");
  } catch {
    return undefined;
  }
}

function exists(dir: string, name: string, overrides: ContentOverrides): boolean {
  return overrides.has(name) || fs.existsSync(path.join(dir, name));
}

function readText(dir: string, name: string, overrides: ContentOverrides = NO_OVERRIDES): string {
  const text = readContentFile(dir, name, overrides);
  if (text === undefined) throw new ContentError(`content/${name}: file is missing (looked in ${dir})`);
  return text;
}

function readJson(dir: string, name: string, overrides: ContentOverrides = NO_OVERRIDES): unknown {
  const text = readText(dir, name, overrides);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ContentError(`content/${name}: not valid JSON (${(error as Error).message})`);
  }
}

/**
 * Rules that span files: every reference must point at something that exists. With a connected shop the products are
 * the shop's, known only once synced, so references to products are not checked here (`catalog status` reports them).
 */
export function checkCrossReferences(content: Content, { catalogSource = "content" }: LoadContentOptions = {}) {
  const errors: string[] = statusHistoryErrors(content);
  if (catalogSource === "sellauth") {
    const categories = new Set(content.site.categories.map((c) => c.value));
    content.overlay.forEach((p, i) => {
      if (p.category !== undefined && !categories.has(p.category))
        errors.push(
          `content/products.json: [${i}].category: expected one of ${[...categories].join(", ")} (from site.json categories)`,
        );
    });
    errors.push(...legalErrors(content));
    if (errors.length) throw new ContentError(errors.join("\n"));
    return;
  }
  const ids = new Set(content.products.map((p) => p.id));
  const categories = new Set(content.site.categories.map((c) => c.value));
  content.site.legacyAliases.forEach((alias, i) => {
    if (!ids.has(alias.productId))
      errors.push(
        `content/site.json: legacyAliases[${i}].productId: alias ${alias.path} points at no product (${alias.productId})`,
      );
  });
  content.site.homeTiles.forEach((id, i) => {
    if (!ids.has(id)) errors.push(`content/site.json: homeTiles[${i}]: no product with id ${id}`);
  });
  content.products.forEach((p, i) => {
    if (!categories.has(p.category))
      errors.push(
        `content/products.json: [${i}].category: expected one of ${[...categories].join(", ")} (from site.json categories)`,
      );
  });
  const slugs = new Set(content.products.map((p) => p.slug));
  content.docs.products.forEach((doc, i) => {
    if (!slugs.has(doc.product))
      errors.push(`content/docs.json: products[${i}].product: no product with slug "${doc.product}"`);
  });
  content.coupons.forEach((coupon, i) => {
    coupon.productIds?.forEach((id, j) => {
      if (!ids.has(id)) errors.push(`content/coupons.json: [${i}].productIds[${j}]: no product with id ${id}`);
    });
  });
  content.downloads.forEach((download, i) => {
    if (download.productId !== undefined && !ids.has(download.productId))
      errors.push(`content/downloads.json: [${i}].productId: no product with id ${download.productId}`);
  });
  errors.push(...legalErrors(content));
  if (errors.length) throw new ContentError(errors.join("\n"));
}

function statusHistoryErrors(content: Content): string[] {
  const names = new Set(content.status.map((row) => row.name));
  return (content.statusHistory?.events ?? []).flatMap((event, i) =>
    names.has(event.product)
      ? []
      : [
          `content/status-history.demo.json: events[${i}].product: expected a name from status.json (${[...names].join(", ")})`,
        ],
  );
}

function legalErrors(content: Content): string[] {
  const errors: string[] = [];
  const listed = new Set(content.site.legal.map((page) => page.slug));
  for (const slug of LEGAL_SLUGS)
    if (!listed.has(slug)) errors.push(`content/site.json: legal: expected an entry for "${slug}" (the /${slug} page)`);
  for (const page of content.site.legal) {
    const file = `content/${legalPage(page.slug).file}`;
    const markdown = content.legal[page.slug];
    if (markdown === undefined) errors.push(`${file}: file is missing`);
    else errors.push(...checkLegalMarkdown(file, markdown, content.site.company));
  }
  return errors;
}

/** Reads and validates every content file in `dir`; throws one ContentError naming each file, path and expectation. */
export function loadContent(dir: string, options: LoadContentOptions = {}): Content {
  return readContent(dir, options).content;
}

type EnglishContent = ReturnType<typeof readContent>;

function readContent(dir: string, options: LoadContentOptions) {
  const overrides = options.overrides ?? NO_OVERRIDES;
  const raw: Partial<Record<keyof ContentFiles, unknown>> = {};
  const parsed: Partial<Record<keyof ContentFiles, unknown>> = {};
  let overlay: ProductOverlay[] = [];
  for (const [key, entry] of Object.entries(CONTENT_FILES)) {
    const data =
      "whenMissing" in entry && !exists(dir, entry.file, overrides)
        ? entry.whenMissing
        : readJson(dir, entry.file, overrides);
    raw[key as keyof ContentFiles] = data;
    if (key === "products" && options.catalogSource === "sellauth") {
      overlay = parseContent(`content/${entry.file}`, overlayFileSchema, data);
      parsed.products = [];
    } else parsed[key as keyof ContentFiles] = parseContent(`content/${entry.file}`, entry.schema, data);
  }
  const content = { ...parsed, legal: {}, overlay } as Content;
  for (const page of content.site.legal) content.legal[page.slug] = readText(dir, legalPage(page.slug).file, overrides);
  const themeProblems = [...missingBrandFiles(content.theme, dir), ...themeContrastProblems(content.theme)];
  if (themeProblems.length) throw new ContentError(themeProblems.join("\n"));
  checkCrossReferences(content, options);
  return { content, raw };
}

/** The content files a locale may translate (status and coupons hold no text; the status history is the operator's). */
const TRANSLATED_FILES = ["site", "products", "faq", "docs", "downloads", "plans"] as const;

export interface LocalizedContent {
  content: Content;
  /** Per file, what the translation lacks (shown in English) and what of it was not used. */
  reports: Record<string, TranslationReport>;
}

/**
 * The content in `locale`: each file of `content/locales/<locale>/` laid over the English one (text only), validated
 * like the English file; a file or string the locale lacks shows in English. The pseudo-locale is made from English.
 */
export function loadLocalizedContent(
  dir: string,
  locale: AnyLocale,
  options: LoadContentOptions = {},
  // The English files as read and checked once (each locale is laid over the same read).
  { content: english, raw }: EnglishContent = readContent(dir, options),
): LocalizedContent {
  if (locale === DEFAULT_LOCALE) return { content: english, reports: {} };
  const overrides = options.overrides ?? NO_OVERRIDES;
  const inLocale = (file: string) => `locales/${locale}/${file}`;
  const content = { ...english, legal: { ...english.legal } } as Content;
  const reports: Record<string, TranslationReport> = {};
  for (const key of TRANSLATED_FILES) {
    const { file, schema } = CONTENT_FILES[key];
    const report: TranslationReport = { missing: [], ignored: [] };
    let merged: unknown;
    if (locale === PSEUDO_LOCALE) merged = mapText(raw[key], pseudoLocalize);
    else {
      const translated = exists(dir, inLocale(file), overrides) ? readJson(dir, inLocale(file), overrides) : undefined;
      merged = overlayTranslation(raw[key], translated, report);
    }
    reports[file] = report;
    const where = `content/locales/${locale}/${file}`;
    if (key === "products" && options.catalogSource === "sellauth")
      content.overlay = parseContent(where, overlayFileSchema, merged);
    else (content as Record<string, unknown>)[key] = parseContent(where, schema, merged);
  }
  for (const page of content.site.legal) {
    const file = legalPage(page.slug).file;
    if (locale === PSEUDO_LOCALE) content.legal[page.slug] = pseudoMarkdown(english.legal[page.slug] ?? "");
    else if (exists(dir, inLocale(file), overrides)) {
      const markdown = readText(dir, inLocale(file), overrides);
      const problems = checkLegalMarkdown(`content/locales/${locale}/${file}`, markdown, content.site.company);
      if (problems.length) throw new ContentError(problems.join("\n"));
      content.legal[page.slug] = markdown;
    } else reports[file] = { missing: ["(the whole page)"], ignored: [] };
  }
  return { content, reports };
}

/** Markdown's text pseudo-localised, its link targets and code left as they are. */
function pseudoMarkdown(markdown: string): string {
  return markdown
    .split(/(\]\([^)]*\)|`[^`]*`|^#+ |^\s*[-*] |^\s*\d+\. |\*\*)/m)
    .map((part, i) => (i % 2 === 1 ? part : pseudoLocalize(part)))
    .join("");
}

/** The configured content directory (CONTENT_DIR, `./content` by default). */
export function contentDir(): string {
  return path.resolve(getEnv().CONTENT_DIR);
}

let cached = new Map<AnyLocale, Content>();
let englishRead: EnglishContent | undefined;
// -1 until the database's version has been read once (a fresh import's revisions may sit at version 0).
let published: { overrides: ContentOverrides; version: number } = { overrides: NO_OVERRIDES, version: -1 };

/** A preview's content (a draft applied), for the one render that asked for it: never anyone else's request. */
const preview = new AsyncLocalStorage<ReadonlyMap<AnyLocale, Content>>();

/** Runs `render` with `byLocale` as the content every getContent inside it sees (the console's preview). */
export function withContentPreview<T>(byLocale: ReadonlyMap<AnyLocale, Content>, render: () => T): T {
  return preview.run(byLocale, render);
}

/** The shop's content in `locale` (English by default), validated once per process (boot fails on a broken file). */
export function getContent(locale: AnyLocale = DEFAULT_LOCALE): Content {
  const previewed = preview.getStore()?.get(locale);
  if (previewed) return previewed;
  let content = cached.get(locale);
  if (!content) {
    const options = { catalogSource: getEnv().CATALOG_SOURCE, overrides: published.overrides };
    englishRead ??= readContent(contentDir(), options);
    content = loadLocalizedContent(contentDir(), locale, options, englishRead).content;
    cached.set(locale, content);
  }
  return content;
}

/**
 * The whole shop's content in every language with `overrides` over the files, each checked as at boot (the schemas,
 * the cross-file checks, the theme's contrast); throws one ContentError naming every file, field and expectation.
 */
export function buildContent(overrides: ContentOverrides, dir = contentDir()) {
  const options = { catalogSource: getEnv().CATALOG_SOURCE, overrides };
  const english = readContent(dir, options);
  const byLocale = new Map<AnyLocale, Content>();
  for (const locale of LOCALE_CODES) byLocale.set(locale, loadLocalizedContent(dir, locale, options, english).content);
  return { english, byLocale };
}

/** Swaps in content built by buildContent, all languages at once: no request ever sees half of a publish. */
export function showContent(built: ReturnType<typeof buildContent>, overrides: ContentOverrides, version: number) {
  englishRead = built.english;
  cached = built.byLocale;
  published = { overrides, version };
}

/** The content version this process shows (-1: the files, before the database was read); the render cache's key. */
export function loadedContentVersion(): number {
  return published.version;
}

/** The overrides this process shows, by file path. */
export function loadedOverrides(): ContentOverrides {
  return published.overrides;
}
