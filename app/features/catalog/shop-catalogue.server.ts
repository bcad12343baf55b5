import * as cheerio from "cheerio";
import sanitizeHtml from "sanitize-html";
import type { Site } from "~/features/layout/site.content";
import { QUANTITY_CEILING } from "./catalog";
import type { Duration, Product, ProductOverlay } from "./catalog.content";
import { shopDurationDays } from "./duration-length";
import { hasFullHistory, type PriceReferences } from "./price-history.server";
import type { ShopFeedback, ShopGroup, ShopProduct, ShopSettings, SkippedProduct } from "./sources/sellauth.server";

/** What one sync read from the shop, kept whole in the database so every instance serves the same catalogue. */
export interface ShopSnapshot {
  syncedAt: string;
  settings: ShopSettings;
  groups: ShopGroup[];
  products: ShopProduct[];
  feedbacks: ShopFeedback[];
  skipped: SkippedProduct[];
  /** Per variant id: the lowest price of the 30 days before the current one, and since when prices are recorded. */
  prices?: PriceReferences;
  /** Keys sold per product id in its owner's window, from completed invoices (sales-counts.server.ts). */
  salesCounts?: Record<string, number>;
}

/** Shown for a shop product when neither the overlay nor the shop gives images. */
const SHOP_PRODUCT_IMAGE = { src: "/images/products/shop-product.svg", width: 800, height: 500 };
const SHOP_PRODUCT_CARD = { src: "/images/products/shop-product-card.svg", width: 400, height: 250 };
/** The shop sends no dimensions: its images take the frames' own (8:5, cropped to fit), so nothing shifts as they load. */
const GALLERY_SIZE = { width: SHOP_PRODUCT_IMAGE.width, height: SHOP_PRODUCT_IMAGE.height };
const CARD_SIZE = { width: SHOP_PRODUCT_CARD.width, height: SHOP_PRODUCT_CARD.height };

/** A product's gallery and card image: the overlay's win, then the shop's own, then the neutral placeholder. */
function imagesFor(
  shop: ShopProduct,
  extra: ProductOverlay | undefined,
  name: string,
): Pick<Product, "images" | "cardImage"> {
  // Snapshots written before the shop's images were read have none.
  const own = shop.images ?? [];
  const first = own[0];
  return {
    images:
      extra?.images ??
      (own.length > 0
        ? own.map((image) => ({ src: image.url, alt: name, ...GALLERY_SIZE }))
        : [{ ...SHOP_PRODUCT_IMAGE, alt: name }]),
    cardImage:
      extra?.cardImage ?? (first ? { src: first.url, alt: name, ...CARD_SIZE } : { ...SHOP_PRODUCT_CARD, alt: name }),
  };
}

/** Every origin the listed products' own images are served from (the page's CSP `img-src` names them). */
export function shopImageOrigins(snapshot: Pick<ShopSnapshot, "products">): string[] {
  const origins = new Set<string>();
  for (const product of snapshot.products)
    for (const image of product.visibility === "public" ? (product.images ?? []) : []) {
      try {
        origins.add(new URL(image.url).origin);
      } catch {
        // Read as a URL by the source already; a snapshot edited by hand is not trusted further.
      }
    }
  return [...origins];
}

/** The shop's own description as the page may show it: a few formatting tags and safe links, nothing else. */
export function sanitiseShopDescription(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ["p", "br", "strong", "b", "em", "i", "u", "ul", "ol", "li", "a", "h3", "h4", "blockquote", "code"],
    allowedAttributes: { a: ["href", "rel", "target"] },
    allowedSchemes: ["https", "http", "mailto"],
    transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer nofollow", target: "_blank" }) },
  }).trim();
}

/** Plain text of the shop's description (meta description, cards, search): no scripts, blocks apart by a space. */
export function shopDescriptionText(html: string): string {
  const safe = sanitiseShopDescription(html).replace(/<\/(p|li|h3|h4|blockquote)>|<br\s*\/?>/gi, " $&");
  return cheerio.load(`<body>${safe}</body>`).root().text().replace(/\s+/g, " ").trim();
}

function slugify(text: string): string {
  return (
    text
      .normalize("NFD")
      .replace(/\p{M}+/gu, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "item"
  );
}

/** A category for a shop product: the overlay's, else the site category named like its group, else the first. */
function categoryFor(
  product: ShopProduct,
  overlay: ProductOverlay | undefined,
  groups: ReadonlyMap<number, string>,
  site: Site,
): string {
  if (overlay?.category) return overlay.category;
  const group = product.groupId === null ? undefined : groups.get(product.groupId);
  const match =
    group === undefined
      ? undefined
      : site.categories.find((c) => c.label.toLowerCase() === group.toLowerCase() || c.value === slugify(group));
  return (match ?? site.categories[0]!).value;
}

/**
 * The shop's variants as the page's durations: the shop's names, ids, prices and stock; each licence's length from
 * the variant's name, or the overlay's `days` for that variant id when it corrects it.
 */
function durationsOf(product: ShopProduct, overlay: ProductOverlay | undefined): Duration[] {
  const used = new Set<string>();
  const corrections = new Map((overlay?.durations ?? []).map((d) => [d.variantId, d.days]));
  return product.variants.map((variant) => {
    let value = slugify(variant.name);
    if (used.has(value)) value = `${value}-${variant.id}`;
    used.add(value);
    return {
      value,
      label: variant.name,
      multiplier: 1,
      days: shopDurationDays(variant.name, corrections.get(variant.id)),
      variantId: variant.id,
      priceCents: variant.priceCents,
      ...(variant.stock === null ? {} : { stock: variant.stock }),
    };
  });
}

/**
 * The storefront's products from a shop snapshot and the content overlay: the shop decides which products exist,
 * their variants, prices, stock, visibility and images; the overlay adds copy, and its images replace the shop's. Only
 * public products are listed.
 */
export function productsFromShop(
  snapshot: ShopSnapshot,
  overlay: readonly ProductOverlay[],
  site: Site,
  { shopUrl }: { shopUrl: string },
): Product[] {
  const overlays = new Map(overlay.map((entry) => [entry.id, entry]));
  const groups = new Map(snapshot.groups.map((g) => [g.id, g.name]));
  const categories = new Set(site.categories.map((c) => c.value));
  const slugs = new Set<string>();
  const products: Product[] = [];
  for (const shop of snapshot.products) {
    if (shop.visibility !== "public") continue;
    const extra = overlays.get(shop.id);
    const durations = durationsOf(shop, extra);
    const lowest = Math.min(...durations.map((d) => d.priceCents ?? 0));
    let slug = extra?.slug ?? slugify(shop.path ?? shop.name);
    if (slugs.has(slug)) slug = `${slug}-${shop.id}`;
    slugs.add(slug);
    const text = shopDescriptionText(shop.description);
    const html = extra?.description ? undefined : sanitiseShopDescription(shop.description);
    const name = extra?.name ?? shop.name;
    const category = categoryFor(shop, extra, groups, site);
    products.push({
      id: shop.id,
      slug,
      name,
      price: lowest / 100,
      ...(extra?.originalPrice !== undefined && extra.originalPrice * 100 > lowest
        ? { originalPrice: extra.originalPrice }
        : slashedPriceOf(shop, snapshot, lowest)),
      category: categories.has(category) ? category : site.categories[0]!.value,
      ...dashboardCopyOf(shop, extra),
      features: extra?.features ?? [],
      description: extra?.description ?? (text || name),
      ...(html ? { descriptionHtml: html } : {}),
      compatibility: extra?.compatibility ?? [],
      ...imagesFor(shop, extra, name),
      durations,
      ...quantityRulesOf(shop, extra),
      isFeatured: extra?.isFeatured ?? false,
      shopUrl: extra?.shopUrl ?? `${shopUrl.replace(/\/$/, "")}/product/${shop.path ?? shop.id}`,
      currency: shop.currency,
      sold: shop.sold,
      ...recentSalesOf(shop, snapshot),
      showStockCount: !snapshot.settings.hideStockCounts,
    });
  }
  return products;
}

/** "N sold in the last H hours" where the owner shows it and the sync could count it (never an offset added). */
function recentSalesOf(shop: ShopProduct, snapshot: ShopSnapshot): Pick<Product, "recentSales"> {
  const count = snapshot.salesCounts?.[String(shop.id)];
  if (!shop.extras?.showSalesCount || count === undefined || count === 0) return {};
  return { recentSales: { count, hours: shop.extras.salesCountHours ?? 24 } };
}

/**
 * The shop's struck-through price (a variant's `price_slash`, else the product's `min_price_slash`) and the lowest
 * price of the 30 days before the current one, shown together and only when every variant's prices have been
 * recorded for those 30 days (price-history.server.ts): otherwise nothing is struck through.
 */
function slashedPriceOf(
  shop: ShopProduct,
  snapshot: ShopSnapshot,
  lowest: number,
): Pick<Product, "originalPrice" | "lowestPrice30"> {
  const x = shop.extras ?? {};
  const cheapest = shop.variants.find((v) => v.priceCents === lowest);
  const slash = (cheapest && x.variantSlashCents?.[String(cheapest.id)]) ?? x.minPriceSlashCents;
  if (slash === undefined || slash <= lowest || !snapshot.prices) return {};
  const references = shop.variants.map((v) => snapshot.prices?.[String(v.id)]);
  if (!references.every((r) => hasFullHistory(r, snapshot.syncedAt))) return {};
  const lowest30 = Math.min(...references.map((r) => r?.lowestCents ?? lowest));
  return { originalPrice: slash / 100, lowestPrice30: lowest30 / 100 };
}

/**
 * What the owner set up in the dashboard for the page (badges, status line, tabs, bought together), each replaced by
 * the overlay's own when it gives one. Tabs are sanitised like the description; an empty one is left out.
 */
function dashboardCopyOf(
  shop: ShopProduct,
  extra: ProductOverlay | undefined,
): Pick<Product, "badges" | "statusLine" | "tabs" | "boughtTogether"> {
  const x = shop.extras ?? {};
  const badges = extra?.badges ?? x.badges?.map((b) => (b.color ? { label: b.label, color: b.color } : b.label)) ?? [];
  const statusLine =
    extra?.statusLine ??
    (x.statusText ? { text: x.statusText, ...(x.statusColor ? { color: x.statusColor } : {}) } : undefined);
  const tabs =
    extra?.tabs ??
    x.tabs
      ?.map((tab) => ({ title: tab.title, html: sanitiseShopDescription(tab.content) }))
      .filter((tab) => tab.html !== "");
  const boughtTogether = extra?.boughtTogether ?? x.upsells;
  return {
    badges,
    ...(statusLine ? { statusLine } : {}),
    ...(tabs?.length ? { tabs } : {}),
    ...(boughtTogether?.length ? { boughtTogether } : {}),
  };
}

/**
 * The shop's own rules for how many keys one checkout buys and what volume discounts it gives: what the shop charges,
 * so never the overlay's (whose `maxQuantity` only applies when the shop sets no `quantity_max`).
 */
function quantityRulesOf(
  shop: ShopProduct,
  extra: ProductOverlay | undefined,
): Pick<Product, "maxQuantity" | "minQuantity" | "volumeDiscounts" | "disableVolumeDiscountsWithCoupon"> {
  const x = shop.extras ?? {};
  const maxQuantity = Math.max(1, Math.min(QUANTITY_CEILING, x.quantityMax ?? extra?.maxQuantity ?? 1));
  return {
    maxQuantity,
    ...(x.quantityMin !== undefined && x.quantityMin > 1 ? { minQuantity: Math.min(x.quantityMin, maxQuantity) } : {}),
    ...(x.volumeDiscounts?.length ? { volumeDiscounts: x.volumeDiscounts } : {}),
    ...(x.disableVolumeDiscountsWithCoupon ? { disableVolumeDiscountsWithCoupon: true } : {}),
  };
}

/** Overlay entries (and their durations' variant ids) the shop no longer has: `catalog diff`. */
export function overlayDrift(snapshot: ShopSnapshot, overlay: readonly ProductOverlay[]): string[] {
  const shopProducts = new Map(snapshot.products.map((p) => [p.id, p]));
  const drift: string[] = [];
  for (const entry of overlay) {
    const product = shopProducts.get(entry.id);
    if (!product) {
      drift.push(`product ${entry.id}${entry.name ? ` (${entry.name})` : ""}: the shop has no such product`);
      continue;
    }
    const variants = new Set(product.variants.map((v) => v.id));
    for (const duration of entry.durations ?? []) {
      if (duration.variantId !== null && !variants.has(duration.variantId))
        drift.push(
          `product ${entry.id} (${product.name}): the shop has no variant ${duration.variantId} (${duration.label})`,
        );
    }
  }
  return drift;
}

/** A starter overlay for `catalog pull`: the shop's products with the fields the content may add, filled from the shop. */
export function starterOverlay(snapshot: ShopSnapshot, site: Site): ProductOverlay[] {
  const groups = new Map(snapshot.groups.map((g) => [g.id, g.name]));
  return snapshot.products.map((shop) => ({
    id: shop.id,
    name: shop.name,
    category: categoryFor(shop, undefined, groups, site),
    description: shopDescriptionText(shop.description) || shop.name,
    badges: [],
    features: [],
    compatibility: [],
  }));
}

/** Feedback the shop shows: automatic feedback hidden where the shop hides it. */
export function visibleFeedback(snapshot: Pick<ShopSnapshot, "feedbacks" | "settings">): ShopFeedback[] {
  return snapshot.feedbacks.filter((f) => !(f.automatic && snapshot.settings.hideAutomaticFeedbacks));
}

export type { ShopFeedback, ShopSettings } from "./sources/sellauth.server";
