/** Catalogue filters as they live in the URL: `?q=studio&category=creator&min=5&max=50`. */
export interface CatalogFilters {
  q: string;
  categories: string[];
  /** Inclusive bounds on the base price in dollars; null when absent or not a usable number. */
  min: number | null;
  max: number | null;
}

export const EMPTY_FILTERS: CatalogFilters = { q: "", categories: [], min: null, max: null };

const MAX_QUERY_LENGTH = 100;

function parsePrice(raw: string | null): number | null {
  const text = raw?.trim() ?? "";
  if (text === "" || !/^\d+(\.\d+)?$/.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/**
 * Reads filters from a query string. `category` may repeat or hold a comma list; unknown categories
 * (when `knownCategories` is given), empty and malformed prices are ignored rather than rejected.
 */
export function parseFilters(params: URLSearchParams, knownCategories?: readonly string[]): CatalogFilters {
  const known = knownCategories ? new Set(knownCategories) : undefined;
  const categories: string[] = [];
  for (const raw of params.getAll("category")) {
    for (const part of raw.split(",")) {
      const value = part.trim().toLowerCase();
      if (value && !categories.includes(value) && (!known || known.has(value))) categories.push(value);
    }
  }
  return {
    q: (params.get("q") ?? "").trim().slice(0, MAX_QUERY_LENGTH),
    categories,
    min: parsePrice(params.get("min")),
    max: parsePrice(params.get("max")),
  };
}

/** The canonical query for a set of filters: empty values are left out, categories repeat. */
export function serializeFilters(filters: CatalogFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.q) params.set("q", filters.q);
  for (const category of filters.categories) params.append("category", category);
  if (filters.min !== null) params.set("min", String(filters.min));
  if (filters.max !== null) params.set("max", String(filters.max));
  return params;
}

/** `?…` for a set of filters, or "" when nothing is filtered. */
export function filtersToSearch(filters: CatalogFilters): string {
  const query = serializeFilters(filters).toString();
  return query ? `?${query}` : "";
}

export function hasActiveFilters(filters: CatalogFilters): boolean {
  return filters.q !== "" || filters.categories.length > 0 || filters.min !== null || filters.max !== null;
}

/** How the catalogue can be ordered (`?sort=`); `featured` is the default and never written in the URL. */
export const CATALOG_SORTS = ["featured", "price-asc", "price-desc", "name", "newest", "popular"] as const;
export type CatalogSort = (typeof CATALOG_SORTS)[number];

export const SORT_LABELS: Record<CatalogSort, string> = {
  featured: "Featured",
  "price-asc": "Price: low to high",
  "price-desc": "Price: high to low",
  name: "Name: A to Z",
  newest: "Newest",
  popular: "Most popular",
};

/** What a catalogue URL asks for: filters, an order and a page. */
export interface CatalogView {
  filters: CatalogFilters;
  sort: CatalogSort;
  /** 1-based; may lie past the last page (the page answers 404 then). */
  page: number;
}

export function parseSort(raw: string | null): CatalogSort {
  return CATALOG_SORTS.find((sort) => sort === raw) ?? "featured";
}

/** `?page=` as a page number; anything but a positive whole number reads as page 1. */
export function parsePage(raw: string | null): number {
  if (raw === null || !/^[1-9]\d*$/.test(raw)) return 1;
  const page = Number(raw);
  // Past any catalogue's last page, so it answers 404 like any other page that is not there.
  return Number.isSafeInteger(page) ? page : Number.MAX_SAFE_INTEGER;
}

export function parseCatalogView(params: URLSearchParams, knownCategories?: readonly string[]): CatalogView {
  return {
    filters: parseFilters(params, knownCategories),
    sort: parseSort(params.get("sort")),
    page: parsePage(params.get("page")),
  };
}

/** The canonical `?…` of a catalogue view (filters, then a sort other than the default, then a page after the first), or "". */
export function catalogSearch({ filters, sort, page }: CatalogView): string {
  const params = serializeFilters(filters);
  if (sort !== "featured") params.set("sort", sort);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `?${query}` : "";
}
