import MiniSearch, { type Query } from "minisearch";
import type { Site } from "~/features/layout/site.content";
import type { Product } from "./catalog.content";
import { CATALOG_SORTS, type CatalogSort } from "./filtering";
import { basePriceCents } from "./pricing";

/** What one list of products asks for: search text, categories, base-price bounds in dollars, order and page. */
export interface CatalogueQuery {
  q?: string;
  categories?: readonly string[];
  min?: number | null;
  max?: number | null;
  sort?: CatalogSort;
  /** 1-based. */
  page?: number;
  pageSize?: number;
}

/** A category of the catalogue and how many products it would give for the query's search and price bounds. */
export interface CategoryFacet {
  value: string;
  label: string;
  count: number;
}

export interface CatalogueResult {
  /** The requested page of matching products, in order. */
  items: Product[];
  /** Products matching the whole query. */
  total: number;
  /** Products in the catalogue. */
  size: number;
  page: number;
  pageSize: number;
  /** At least 1, so an empty result still has its first page. */
  pageCount: number;
  /** The catalogue's categories (in the site's order) that hold any product. */
  facets: CategoryFacet[];
}

/** The catalogue as every list of products reads it (docs/decisions/014): built once per set of products. */
export interface Catalogue {
  readonly size: number;
  product(id: number): Product | undefined;
  query(query: CatalogueQuery): CatalogueResult;
  /** Up to `count` other products of `product`'s category, in the default order. */
  related(product: Product, count: number): Product[];
  /** Every product, in the content's order (the sitemap). */
  all(): readonly Product[];
  /** The orders this catalogue offers: `popular` only when the shop counts sales. */
  readonly sorts: readonly CatalogSort[];
}

export const DEFAULT_PAGE_SIZE = 24;
/** Words of this many letters or more match with one typo (one letter wrong, missing, extra or two swapped). */
const TYPO_MIN_LENGTH = 5;
/** At most this many query words are searched: more add cost, not precision. */
const MAX_QUERY_WORDS = 8;

const SEARCH_FIELDS = ["name", "description", "features", "category"] as const;

/** Case and accents do not matter: "VAÚLT" finds what "vault" finds. */
export function normaliseTerm(term: string): string {
  return term
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
}

const tokenize = MiniSearch.getDefault("tokenize") as (text: string) => string[];

/** The query's words, normalised, without repeats. */
function queryWords(q: string): string[] {
  return [...new Set(tokenize(q).map(normaliseTerm).filter(Boolean))].slice(0, MAX_QUERY_WORDS);
}

/** The word with two neighbouring letters swapped, each way: the typo edit distance counts twice. */
function transpositions(word: string): string[] {
  const swapped = new Set<string>();
  for (let i = 0; i + 1 < word.length; i++) {
    if (word[i] !== word[i + 1]) swapped.add(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
  }
  return [...swapped];
}

/** One word's query: itself as a prefix (what is being typed) or within one typo, or one of its transpositions. */
function wordQuery(word: string): Query {
  if (word.length < TYPO_MIN_LENGTH) return { queries: [word], prefix: true, fuzzy: false };
  return {
    combineWith: "OR",
    queries: [
      { queries: [word], prefix: true, fuzzy: 1 },
      { queries: transpositions(word), combineWith: "OR", prefix: false, fuzzy: false },
    ],
  };
}

/** Every word must match somewhere (`capture ultimate` narrows, it does not widen). */
function searchQuery(words: readonly string[]): Query {
  return { combineWith: "AND", queries: words.map(wordQuery) };
}

function byKeys(...keys: Array<(a: number, b: number) => number>) {
  return (a: number, b: number) => {
    for (const key of keys) {
      const order = key(a, b);
      if (order !== 0) return order;
    }
    return 0;
  };
}

/** `language`: the BCP 47 tag of the products' text, which orders them by name (`Name: A to Z`). */
export function createCatalogue(
  products: readonly Product[],
  categories: Site["categories"],
  language = "en",
): Catalogue {
  const count = products.length;
  const labels = new Map(categories.map((c) => [c.value, c.label]));
  const categoryIndex = new Map(categories.map((c, i) => [c.value, i]));
  const categoryOf = Int32Array.from(products, (p) => categoryIndex.get(p.category) ?? -1);
  const priceOf = Float64Array.from(products, basePriceCents);
  const byId = new Map(products.map((p) => [p.id, p]));

  // Every order is computed once: a query walks one of them and keeps what matches.
  const indices = Array.from({ length: count }, (_, i) => i);
  const featuredRank = new Int32Array(count);
  const featured = [...indices].sort(
    byKeys(
      (a, b) => Number(products[b]!.isFeatured) - Number(products[a]!.isFeatured),
      (a, b) => a - b,
    ),
  );
  for (const [rank, ix] of featured.entries()) featuredRank[ix] = rank;
  const collator = new Intl.Collator(language, { sensitivity: "base", numeric: true });
  const byFeatured = (a: number, b: number) => featuredRank[a]! - featuredRank[b]!;
  const orders: Record<CatalogSort, readonly number[]> = {
    featured,
    "price-asc": [...indices].sort(byKeys((a, b) => priceOf[a]! - priceOf[b]!, byFeatured)),
    "price-desc": [...indices].sort(byKeys((a, b) => priceOf[b]! - priceOf[a]!, byFeatured)),
    name: [...indices].sort(byKeys((a, b) => collator.compare(products[a]!.name, products[b]!.name), byFeatured)),
    // The shop numbers products as they are created, so the highest id is the newest.
    newest: [...indices].sort((a, b) => products[b]!.id - products[a]!.id),
    popular: [...indices].sort(byKeys((a, b) => (products[b]!.sold ?? 0) - (products[a]!.sold ?? 0), byFeatured)),
  };
  const sorts = CATALOG_SORTS.filter((sort) => sort !== "popular" || products.some((p) => p.sold !== undefined));
  const relatedByCategory = new Map<number, number[]>();
  for (const ix of featured) {
    const list = relatedByCategory.get(categoryOf[ix]!) ?? [];
    list.push(ix);
    relatedByCategory.set(categoryOf[ix]!, list);
  }
  const presentCategories = categories.filter((_, i) => relatedByCategory.has(i));

  const index = new MiniSearch<{ ix: number; name: string; description: string; features: string; category: string }>({
    idField: "ix",
    fields: [...SEARCH_FIELDS],
    processTerm: normaliseTerm,
    searchOptions: { boost: { name: 3 } },
  });
  index.addAll(
    products.map((p, ix) => ({
      ix,
      name: p.name,
      description: p.description,
      features: p.features.join("\n"),
      category: labels.get(p.category) ?? p.category,
    })),
  );

  /** The order of a search's matches under the default sort: name matches first, then by score, then featured. */
  function rankedMatches(words: readonly string[]): { order: number[]; matched: Uint8Array } {
    const query = searchQuery(words);
    const inName = new Set(index.search(query, { fields: ["name"] }).map((r) => r.id as number));
    const results = index.search(query);
    const matched = new Uint8Array(count);
    const score = new Float64Array(count);
    for (const r of results) {
      matched[r.id as number] = 1;
      score[r.id as number] = r.score;
    }
    const order = results
      .map((r) => r.id as number)
      .sort(
        byKeys(
          (a, b) => Number(inName.has(b)) - Number(inName.has(a)),
          (a, b) => score[b]! - score[a]!,
          byFeatured,
        ),
      );
    return { order, matched };
  }

  return {
    size: count,
    sorts,
    product: (id) => byId.get(id),
    all: () => products,
    related(product, wanted) {
      const ix = categoryIndex.get(product.category);
      const list = ix === undefined ? [] : (relatedByCategory.get(ix) ?? []);
      return list
        .map((i) => products[i]!)
        .filter((p) => p.id !== product.id)
        .slice(0, wanted);
    },
    query({
      q = "",
      categories: chosen = [],
      min = null,
      max = null,
      sort = "featured",
      page = 1,
      pageSize = DEFAULT_PAGE_SIZE,
    }) {
      const words = queryWords(q);
      const search = words.length > 0 ? rankedMatches(words) : undefined;
      const order = search && sort === "featured" ? search.order : orders[sorts.includes(sort) ? sort : "featured"];
      const wantedCategories = new Set(chosen.map((c) => categoryIndex.get(c)).filter((c) => c !== undefined));
      const minCents = min === null ? -Infinity : Math.round(min * 100);
      const maxCents = max === null ? Infinity : Math.round(max * 100);
      const facetCounts = new Int32Array(categories.length);
      const firstOfPage = (page - 1) * pageSize;
      const items: Product[] = [];
      let total = 0;
      for (const ix of order) {
        if (search && !search.matched[ix]) continue;
        const price = priceOf[ix]!;
        if (price < minCents || price > maxCents) continue;
        const category = categoryOf[ix]!;
        // Each checkbox counts what it would give with the search and prices as they are.
        if (category >= 0) facetCounts[category]!++;
        if (wantedCategories.size > 0 && !wantedCategories.has(category)) continue;
        if (total >= firstOfPage && items.length < pageSize) items.push(products[ix]!);
        total++;
      }
      return {
        items,
        total,
        size: count,
        page,
        pageSize,
        pageCount: Math.max(1, Math.ceil(total / pageSize)),
        facets: presentCategories.map((c) => ({
          value: c.value,
          label: c.label,
          count: facetCounts[categoryIndex.get(c.value)!]!,
        })),
      };
    },
  };
}
