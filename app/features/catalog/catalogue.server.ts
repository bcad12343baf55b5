import { getContent } from "~/features/content/content.server";
import { type AnyLocale, DEFAULT_LOCALE, localeInfo } from "~/features/i18n/locales";
import { getDb } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { logger } from "~/platform/logger.server";
import { recordCatalogueSyncedAt } from "~/platform/metrics.server";
import type { Product } from "./catalog.content";
import { type Catalogue, type CatalogueQuery, type CatalogueResult, createCatalogue } from "./catalogue-query.server";
import { withReadableColours } from "./colour-check.server";
import { productsFromShop, type ShopSnapshot, shopImageOrigins } from "./shop-catalogue.server";
import {
  type LoadedSnapshot,
  requestCatalogueSync,
  type ShopSync,
  type SyncRequest,
  startShopSync,
} from "./shop-sync.server";
import { createSellAuthCatalogue } from "./sources/sellauth.server";

// The source of products sits behind these functions: the content files (the demo), or the connected shop's
// catalogue as the last sync left it (docs/shop.md). Every list of products and every product page asks them.
// Products carry text (names, descriptions, features, labels) and the search index reads it, so each locale has a
// catalogue of its own: built from that locale's content the first time a page in it asks.
const fromContent = new Map<AnyLocale, { products: readonly Product[]; catalogue: Catalogue }>();
let fromShop: { version: number; snapshot: ShopSnapshot; catalogues: Map<AnyLocale, Catalogue> } | undefined;
const emptyCatalogues = new Map<AnyLocale, Catalogue>();
let shopSync: ShopSync | undefined;

const fromTheShop = () => getEnv().CATALOG_SOURCE === "sellauth";

/** The catalogue being served in `locale`, indexed once per set of products (at boot, then whenever they change). */
export function getCatalogue(locale: AnyLocale = DEFAULT_LOCALE): Catalogue {
  const { products, site } = getContent(locale);
  const { tag } = localeInfo(locale);
  if (fromTheShop()) {
    if (fromShop) return shopCatalogue(fromShop, locale);
    let empty = emptyCatalogues.get(locale);
    if (!empty) {
      empty = createCatalogue([], site.categories, tag);
      emptyCatalogues.set(locale, empty);
    }
    return empty;
  }
  let entry = fromContent.get(locale);
  if (entry?.products !== products) {
    const { theme } = getContent(locale);
    entry = { products, catalogue: createCatalogue(withReadableColours(products, theme), site.categories, tag) };
    fromContent.set(locale, entry);
  }
  return entry.catalogue;
}

/** Every list of products (the catalogue page, related products, the sitemap) is an answer to this. */
export function queryCatalogue(query: CatalogueQuery, locale: AnyLocale = DEFAULT_LOCALE): CatalogueResult {
  return getCatalogue(locale).query({ pageSize: getContent(locale).site.catalogPageSize, ...query });
}

export function getProduct(id: number, locale: AnyLocale = DEFAULT_LOCALE): Product | undefined {
  return getCatalogue(locale).product(id);
}

/** Which catalogue a page was rendered from: the render cache keys pages by it, so no page outlives its prices. */
export function catalogueVersion(): string {
  return fromTheShop() ? `shop-${fromShop?.version ?? 0}` : "content";
}

/** False while a connected shop's catalogue has never been read (`/readyz` answers 503 until it is). */
export function isCatalogueReady(): boolean {
  return !fromTheShop() || fromShop !== undefined;
}

/** What the last sync read from the shop (its feedback and settings too), or undefined before one. */
export function currentShopSnapshot(): ShopSnapshot | undefined {
  return fromShop?.snapshot;
}

let imageSources: { version: number; origins: string[] } | undefined;

/**
 * The origins a page may load product images from besides our own: with a connected shop, its image delivery and
 * every host its synced products' images name; nothing for content (its images are ours).
 */
export function productImageOrigins(): string[] {
  if (!fromTheShop()) return [];
  const delivery = new URL(getEnv().SHOP_IMAGE_DELIVERY_URL).origin;
  if (!fromShop) return [delivery];
  if (imageSources?.version !== fromShop.version)
    imageSources = {
      version: fromShop.version,
      origins: [...new Set([delivery, ...shopImageOrigins(fromShop.snapshot)])],
    };
  return imageSources.origins;
}

/** Serves a snapshot: the shop's products with the content's overlay, indexed, swapped in whole. */
export function serveShopSnapshot({ version, snapshot }: LoadedSnapshot) {
  const next = { version, snapshot, catalogues: new Map<AnyLocale, Catalogue>() };
  // English at once (boot logs and /readyz count it); every other locale when a page in it first asks.
  const products = shopCatalogue(next, DEFAULT_LOCALE).size;
  fromShop = next;
  recordCatalogueSyncedAt(new Date(snapshot.syncedAt));
  logger.debug({ version, products }, "serving the shop's catalogue");
}

/** The snapshot's catalogue in `locale`: the shop's products with that locale's overlay (its copy laid over English). */
function shopCatalogue(
  served: { snapshot: ShopSnapshot; catalogues: Map<AnyLocale, Catalogue> },
  locale: AnyLocale,
): Catalogue {
  let catalogue = served.catalogues.get(locale);
  if (!catalogue) {
    const { site, overlay, theme } = getContent(locale);
    const env = getEnv();
    const { snapshot } = served;
    const shopUrl = snapshot.settings.subdomain
      ? `https://${snapshot.settings.subdomain}.mysellauth.com`
      : (env.SHOP_CHECKOUT_ORIGIN?.split(",")[0]?.trim() ?? env.SHOP_API_BASE);
    const products = productsFromShop(snapshot, overlay, site, { shopUrl });
    catalogue = createCatalogue(withReadableColours(products, theme), site.categories, localeInfo(locale).tag);
    served.catalogues.set(locale, catalogue);
  }
  return catalogue;
}

/** With a connected shop, keeps its catalogue current until the returned stop is called; nothing for content. */
export function startCatalogueSync(): (() => Promise<void>) | undefined {
  if (!fromTheShop()) return undefined;
  const controller = new AbortController();
  shopSync = startShopSync({
    db: getDb().db,
    api: createSellAuthCatalogue({ ...shopApiOptions(), signal: controller.signal }),
    refreshMs: getEnv().CATALOG_REFRESH_SECONDS * 1000,
    onSnapshot: serveShopSnapshot,
  });
  return async () => {
    controller.abort();
    await shopSync?.stop();
  };
}

/** Why the catalogue is not ready yet, for /readyz. */
export function catalogueProblem(): string | null {
  return isCatalogueReady() ? null : (shopSync?.lastError() ?? "the first catalogue sync has not finished");
}

/** How a shop notification that is not about an invoice moves the catalogue (event names: docs/shop.md). */
export function syncRequestFor(event: string, data: Record<string, unknown>): SyncRequest {
  const productId = Number(data.product_id);
  const named = Number.isSafeInteger(productId) && productId > 0;
  if (/FEEDBACK/i.test(event)) return { kind: "feedback" };
  if (/PRODUCT|STOCK|INVOICE/i.test(event) && named) return { kind: "product", productId };
  return { kind: "full" };
}

/** A shop notification about products, stock or feedback: the lease holder resyncs what it names within a second. */
export async function onShopCatalogueEvent(event: string, data: Record<string, unknown>): Promise<boolean> {
  if (!fromTheShop()) return false;
  await requestCatalogueSync(getDb().db, syncRequestFor(event, data));
  return true;
}

/**
 * The shop's stock of a variant right now (checkout asks before it creates an invoice): a number, null when the shop
 * does not count it, "gone" when the shop no longer sells it, or undefined when the shop cannot be asked (the
 * catalogue's figure stands then). A variant found sold out is resynced, so the page says so too.
 */
export async function liveStock(productId: number, variantId: number): Promise<number | null | "gone" | undefined> {
  if (!fromTheShop()) return undefined;
  try {
    const read = await createSellAuthCatalogue({ ...shopApiOptions(), timeoutMs: 3_000 }).product(productId);
    if (!read || !("product" in read) || read.product.visibility !== "public") return "gone";
    const variant = read.product.variants.find((v) => v.id === variantId);
    if (!variant) return "gone";
    const known = getCatalogue()
      .product(productId)
      ?.durations.find((d) => d.variantId === variantId);
    if (variant.stock !== (known?.stock ?? null))
      await requestCatalogueSync(getDb().db, { kind: "product", productId });
    return variant.stock;
  } catch (error) {
    logger.warn(
      { err: error instanceof Error ? error.message : String(error), productId },
      "could not ask the shop for stock before checkout",
    );
    return undefined;
  }
}

/** The connected shop's invoices, newest first, back to `since` (the recent-sales notice reads them). */
export function shopInvoicesSince(since: Date): Promise<unknown[]> {
  return createSellAuthCatalogue({ ...shopApiOptions(), timeoutMs: 5_000 }).invoicesSince(since, 5);
}

function shopApiOptions() {
  const env = getEnv();
  return {
    apiBase: env.SHOP_API_BASE,
    shopId: env.SHOP_ID,
    apiKey: env.SHOP_API_KEY ?? "",
    imageDelivery: { deliveryUrl: env.SHOP_IMAGE_DELIVERY_URL, accountHash: env.SHOP_IMAGE_ACCOUNT_HASH },
  };
}
