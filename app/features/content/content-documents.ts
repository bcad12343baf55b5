// The documents the console edits (issue 44, docs/content.md): each is one file of content/ in one language, kept in
// its file's own format. Shared by the console's page and its server (no file system here).
import { DEFAULT_LOCALE, LOCALE_CODES, type Locale } from "~/features/i18n/locales";
import { LEGAL_SLUGS, type LegalSlug } from "~/features/legal/legal-pages";

/** What can be edited: copy and look, never prices, ids or what the checkout charges (those stay in products.json). */
export const DOCUMENT_KINDS = ["site", "faq", "docs", "plans", "products", "legal"] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export interface ContentDocumentId {
  kind: DocumentKind;
  locale: Locale;
  /** The legal page's slug; "" for the other kinds (one file each). */
  key: string;
}

const JSON_FILES: Record<Exclude<DocumentKind, "legal">, string> = {
  site: "site.json",
  faq: "faq.json",
  docs: "docs.json",
  plans: "plans.json",
  products: "products.json",
};

export function isDocumentKind(value: string): value is DocumentKind {
  return (DOCUMENT_KINDS as readonly string[]).includes(value);
}

export function isLocale(value: string): value is Locale {
  return (LOCALE_CODES as readonly string[]).includes(value);
}

/** A document from the console's URL parts, or undefined for anything that names none. */
export function documentOf(kind: string, locale: string, key = ""): ContentDocumentId | undefined {
  if (!isDocumentKind(kind) || !isLocale(locale)) return undefined;
  if (kind === "legal") return (LEGAL_SLUGS as readonly string[]).includes(key) ? { kind, locale, key } : undefined;
  return key === "" ? { kind, locale, key } : undefined;
}

/** Where the document's file default lives inside content/ (`locales/de/faq.json`, `legal/terms.md`). */
export function documentPath({ kind, locale, key }: ContentDocumentId): string {
  const file = kind === "legal" ? `legal/${key as LegalSlug}.md` : JSON_FILES[kind];
  return locale === DEFAULT_LOCALE ? file : `locales/${locale}/${file}`;
}

/** Markdown (the legal pages) or JSON (the rest). */
export function isMarkdown(id: ContentDocumentId): boolean {
  return id.kind === "legal";
}

/** Every document, in the console's order: each kind, each legal page, in every language. */
export function everyDocument(): ContentDocumentId[] {
  return DOCUMENT_KINDS.flatMap((kind) =>
    (kind === "legal" ? [...LEGAL_SLUGS] : [""]).flatMap((key) =>
      LOCALE_CODES.map((locale) => ({ kind, locale, key })),
    ),
  );
}

export function documentSlug(id: ContentDocumentId): string {
  return id.key ? `${id.kind}/${id.key}` : id.kind;
}

/** A document's path in the console: `/admin/content/faq/de`, `/admin/content/legal/terms/de`. */
export function documentHref(id: ContentDocumentId): string {
  return `/admin/content/${documentSlug(id)}/${id.locale}`;
}
