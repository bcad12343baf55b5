import type { DocEntry, DocsFile } from "./docs.content";
import type { Product } from "~/features/catalog/catalog.content";

export interface DocsProductOption {
  slug: string;
  name: string;
  entryCount: number;
}

export interface DocsView {
  options: DocsProductOption[];
  selected: DocsProductOption;
  entries: Array<DocEntry & { anchor: string }>;
}

/**
 * Resolves `?product=<slug>`; a missing or unknown slug shows the first product's docs. Entry anchors come from the
 * English titles (`english`, in the same order as any translation), so `#app-crashing` links work in every language.
 */
export function selectDocs(
  docs: DocsFile,
  products: ReadonlyArray<Pick<Product, "slug" | "name">>,
  requested: string | null,
  english: DocsFile = docs,
): DocsView {
  const names = new Map(products.map((p) => [p.slug, p.name]));
  const options = docs.products.map((d) => ({
    slug: d.product,
    name: names.get(d.product) ?? d.product,
    entryCount: d.entries.length,
  }));
  const index = Math.max(
    0,
    docs.products.findIndex((d) => d.product === requested),
  );
  const selectedDocs = docs.products[index]!;
  const englishEntries = english.products[index]?.entries ?? [];
  const entries = selectedDocs.entries.map((entry, i) => ({
    ...entry,
    anchor: docEntryAnchor(englishEntries[i]?.title ?? entry.title),
  }));
  return { options, selected: options[index]!, entries };
}

/** Anchor id for an entry (`App Crashing` → `app-crashing`), so `/docs?product=vault#app-crashing` links to it. */
export function docEntryAnchor(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}
