import type { Duration, Product } from "./catalog.content";
import { findDuration } from "./pricing";

/** The most keys one checkout may buy, whatever a product allows. */
export const QUANTITY_CEILING = 100;

export function productPath(product: Pick<Product, "id">): string {
  return `/product/${product.id}`;
}

/** A product id from the URL: digits only (so `/product/1e3` or `/product/ 7` are unknown, not coerced). */
export function parseProductId(param: string | undefined): number | null {
  return param && /^\d{1,15}$/.test(param) ? Number(param) : null;
}

/** The duration named by `?duration=`, or the product's first duration that is not sold out. */
export function durationFromSearch(product: Product, search: URLSearchParams): Duration {
  return (
    findDuration(product, search.get("duration") ?? "") ??
    product.durations.find((d) => !isSoldOut(d)) ??
    product.durations[0]!
  );
}

/** The quantity bounds a product (or the stock left) sets: `minQuantity` (default 1) … `maxQuantity`. */
export type QuantityBounds = Pick<Product, "maxQuantity"> & Partial<Pick<Product, "minQuantity">>;

/** `?quantity=` as a whole number within the product's bounds; anything else means its minimum or the nearest bound. */
export function quantityFromSearch(product: QuantityBounds, search: URLSearchParams): number {
  return clampQuantity(product, Number.parseInt(search.get("quantity") ?? "", 10));
}

export function minQuantityOf(product: Partial<Pick<Product, "minQuantity">>): number {
  return product.minQuantity ?? 1;
}

export function clampQuantity(product: QuantityBounds, quantity: number): number {
  const least = Math.min(minQuantityOf(product), product.maxQuantity);
  if (!Number.isFinite(quantity)) return least;
  return Math.min(product.maxQuantity, Math.max(least, Math.trunc(quantity)));
}

/** Above this many keys left, the page says nothing about stock. */
export const LOW_STOCK = 5;

/** What the page says about stock (`Sold out`, `Only 3 left` when the shop shows counts), or null for nothing. */
export type StockNote = { soldOut: true } | { soldOut: false; left: number };

export function stockNote(duration: Pick<Duration, "stock">, showCount: boolean): StockNote | null {
  if (duration.stock === undefined) return null;
  if (duration.stock === 0) return { soldOut: true };
  return showCount && duration.stock <= LOW_STOCK ? { soldOut: false, left: duration.stock } : null;
}

export function isSoldOut(duration: Pick<Duration, "stock">): boolean {
  return duration.stock === 0;
}

/** The most keys of a duration one checkout may buy: the product's limit, or fewer when fewer are left. */
export function maxQuantityOf(product: Pick<Product, "maxQuantity">, duration: Pick<Duration, "stock">): number {
  return Math.max(1, Math.min(product.maxQuantity, duration.stock ?? Number.POSITIVE_INFINITY));
}

/** The bounds of the quantity control for a duration: the product's minimum, and its maximum or the stock left. */
export function quantityBoundsOf(product: QuantityBounds, duration: Pick<Duration, "stock">): Required<QuantityBounds> {
  const maxQuantity = maxQuantityOf(product, duration);
  return { minQuantity: Math.min(minQuantityOf(product), maxQuantity), maxQuantity };
}

/** Only a duration sold in the shop (it has a variant id) of a product with a shop link, and not sold out, can be bought. */
export function canPurchase(
  product: Pick<Product, "shopUrl">,
  duration: Pick<Duration, "variantId" | "stock">,
): boolean {
  return duration.variantId !== null && product.shopUrl !== null && !isSoldOut(duration);
}

/**
 * The catalogue's status line (catalogue-status.tsx says it): `6 products`, or `Showing 25–48 of 1,000 products`
 * when there are several pages, `Showing 1 of 6 products` or `Showing 25–48 of 130 matching products` with filters.
 */
export interface CatalogueStatusInput {
  total: number;
  size: number;
  page: number;
  pageSize: number;
  pageCount: number;
  filtered: boolean;
}

/** The 1-based positions of the first and last product a page shows. */
export function pageRange({ total, page, pageSize }: Pick<CatalogueStatusInput, "total" | "page" | "pageSize">) {
  return { first: (page - 1) * pageSize + 1, last: Math.min(page * pageSize, total) };
}

/** The home page tiles in the order the site lists them (an id the catalogue does not hold is left out). */
export function homeTileProducts(
  ids: readonly number[],
  catalogue: { product(id: number): Product | undefined },
): ProductTileData[] {
  return productTiles(ids.flatMap((id) => catalogue.product(id) ?? []));
}

/** Only what a tile shows: the loader's data rides inline in the page, whose first round trip it shares. */
export function productTiles(products: readonly Product[]): ProductTileData[] {
  return products.map(({ id, name, price, cardImage, currency }) => ({
    id,
    name,
    price,
    cardImage,
    ...currencyUnlessUsd(currency),
  }));
}

/** The currency travels with a card only when it is not the default, so a dollar shop's pages stay as small as they were. */
function currencyUnlessUsd(currency: string): { currency?: string } {
  return currency === "USD" ? {} : { currency };
}

/** What a home-page tile shows of a product. */
export type ProductTileData = Pick<Product, "id" | "name" | "price" | "cardImage"> & Partial<Pick<Product, "currency">>;

/** How many features a catalogue card lists. */
export const CARD_FEATURES = 4;

/** What a catalogue card shows of a product (its gallery, description and durations stay on the product page). */
export type ProductCardData = Pick<
  Product,
  "id" | "name" | "price" | "originalPrice" | "badges" | "features" | "cardImage"
> &
  Partial<Pick<Product, "currency" | "statusLine" | "lowestPrice30">>;

export function productCards(products: readonly Product[]): ProductCardData[] {
  return products.map(
    ({ id, name, price, originalPrice, badges, features, cardImage, currency, statusLine, lowestPrice30 }) => ({
      id,
      name,
      price,
      originalPrice,
      badges,
      features: features.slice(0, CARD_FEATURES),
      cardImage,
      ...currencyUnlessUsd(currency),
      ...(statusLine ? { statusLine } : {}),
      ...(lowestPrice30 !== undefined && originalPrice !== undefined ? { lowestPrice30 } : {}),
    }),
  );
}

/** True when two URLs of a product page differ only in `?duration=` or `?quantity=` (a selection change, nothing to reload). */
export function onlySelectionChanged(current: URL, next: URL): boolean {
  if (current.pathname !== next.pathname || current.href === next.href) return false;
  const withoutSelection = (url: URL) => {
    const params = new URLSearchParams(url.search);
    params.delete("duration");
    params.delete("quantity");
    params.sort();
    return params.toString();
  };
  return withoutSelection(current) === withoutSelection(next);
}
