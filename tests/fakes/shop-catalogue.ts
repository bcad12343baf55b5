// The catalogue side of the SellAuth emulator: products (Laravel pages of up to 100), groups, feedback with replies and
// the shop's settings, as SellAuth's API documents them (prices as decimal strings, stock −1 for unlimited), and product
// images in each shape a product may carry them (docs/shop.md), served by the emulator itself. Tests change prices,
// stock and images, sell keys, hide products, and make the API slow, rate-limited or down.
import fs from "node:fs";
import path from "node:path";
import { priceCents } from "../../app/features/catalog/pricing.ts";

export interface EmulatedVariant {
  id: number;
  product_id: number;
  name: string;
  description: string | null;
  /** As Laravel sends decimals: a string. */
  price: string;
  /** −1: unlimited. */
  stock: number;
}

export interface EmulatedProduct {
  id: number;
  name: string;
  path: string;
  description: string;
  price: null;
  currency: string;
  stock: null;
  group_id: number | null;
  type: "variant";
  visibility: string;
  products_sold: number;
  stock_count: number;
  variants: EmulatedVariant[];
}

export interface EmulatedFeedback {
  id: number;
  invoice_id: number;
  product_id: number;
  message: string;
  rating: number;
  reply: string | null;
  is_automatic: boolean;
  created_at: string;
}

/** A product the emulator sends as the API does, but broken: its variant's price is not a number. */
export const MALFORMED_PRODUCT = {
  id: 447199,
  name: "Kestrel Broken",
  path: "broken",
  description: "<p>Its price cannot be read.</p>",
  price: null,
  currency: "USD",
  stock: null,
  group_id: 1,
  type: "variant",
  visibility: "public",
  products_sold: 0,
  stock_count: 1,
  variants: [
    { id: 699990, product_id: 447199, name: "Lifetime", description: null, price: "twelve dollars", stock: 1 },
  ],
} as const;

/** The Cloudflare Images account hash the emulator's delivery path expects (SellAuth's, as its docs show it). */
export const EMULATED_IMAGE_ACCOUNT_HASH = "HL_Fwm__tlvUGLZF2p74xw";
/** Where the emulator delivers Cloudflare image ids: set SHOP_IMAGE_DELIVERY_URL to `{emulator url}{this}`. */
export const EMULATED_IMAGE_DELIVERY_PATH = "/imagedelivery";

/** A product's image fields, in the shapes SellAuth sends them; absent fields are left out. */
export interface EmulatedImageFields {
  images?: unknown;
  image_url?: unknown;
  cloudflare_image_id?: unknown;
}

/** The image fields in each shape, with URLs on `imageBase` (the emulator, which serves their bytes). */
export function emulatedImages(imageBase: string) {
  return {
    /** The Images API's objects in a list: the whole gallery. An `image_url` beside it loses. */
    list: {
      images: [
        { $id: 451, cloudflare_image_id: "gallery-1-id-loses", url: `${imageBase}/images/shop-gallery-1.svg` },
        { $id: 452, url: `${imageBase}/images/shop-gallery-2.svg` },
      ],
      image_url: `${imageBase}/images/shop-image-url-loses.svg`,
    },
    imageUrl: { image_url: `${imageBase}/images/shop-image-url.svg` },
    cloudflareId: { cloudflare_image_id: "34231df0-a3ba-4e4a-c440-85269a308700" },
    /** Every field broken: the product keeps its place and shows the placeholder. */
    malformed: { images: [{ url: "javascript:alert(1)" }, 42, { url: "/relative.png" }], image_url: "not a url" },
  } satisfies Record<string, EmulatedImageFields>;
}

/** A product the content does not describe: its page is built from the shop's own data. */
export const SHOP_ONLY_PRODUCT_ID = 447200;
/** A product the shop does not list publicly: not in the catalogue, its page 404. */
export const HIDDEN_PRODUCT_ID = 447201;

const CONTENT_PRODUCTS = path.resolve(import.meta.dirname, "../../content/products.json");

interface ContentDuration {
  label: string;
  multiplier: number;
  variantId: number | null;
}
interface ContentProduct {
  id: number;
  slug: string;
  name: string;
  price: number;
  category: string;
  description: string;
  durations: ContentDuration[];
  minQuantity?: number;
  maxQuantity?: number;
  volumeDiscounts?: Array<{ quantity: number; percent: number }>;
  disableVolumeDiscountsWithCoupon?: boolean;
}

/**
 * The dashboard's fields for the demo products, in each shape SellAuth has been seen to send them, with a malformed
 * entry beside good ones (skipped with a logged reason, never the product):
 * - Kestrel Studio: the content's tiers as `{quantity, percentage}` (percentages as decimal strings), a tier whose
 *   quantity is not a number, `disable_volume_discounts_if_coupon: 1`, and its quantity bounds.
 * - Kestrel Vault: `{qty, percent}` tiers, JSON text, a `null` entry; `quantity_max` as a string.
 * - Kestrel Capture Ultimate: `quantity_min: 2` (the shop sells it in twos at least).
 */
export function emulatedExtras(p: ContentProduct): Record<string, unknown> {
  const bounds = {
    quantity_min: p.minQuantity ?? 0,
    quantity_max: p.maxQuantity ?? 1,
  };
  if (p.id === 446894)
    return {
      ...bounds,
      volume_discounts: [
        ...(p.volumeDiscounts ?? []).map((t) => ({ quantity: t.quantity, percentage: t.percent.toFixed(2) })),
        { quantity: "lots", percentage: 50 },
      ],
      disable_volume_discounts_if_coupon: p.disableVolumeDiscountsWithCoupon ? 1 : 0,
    };
  if (p.id === 446889)
    return {
      ...bounds,
      quantity_max: String(p.maxQuantity ?? 1),
      volume_discounts: JSON.stringify([{ qty: 3, percent: 5 }, null]),
      disable_volume_discounts_if_coupon: false,
    };
  if (p.id === 447089) return { ...bounds, quantity_min: 2 };
  return bounds;
}

/**
 * Kestrel Relay's dashboard copy (the content has no entry for it, so its page shows these as they are): tabs, one
 * with a script and an unsafe link, one malformed; badges as objects and a bare string, one colour that fails WCAG AA
 * on the dark theme, one malformed; a status line; upsells in three shapes and a malformed one; the sales count.
 */
export const EMULATED_DASHBOARD = {
  product_tabs: [
    { title: "Requirements", content: "<p>Windows 10 or 11, <strong>8 GB</strong> of memory.</p>" },
    {
      title: "Changelog",
      content: '<ul><li>4.2: faster exports</li></ul><script>alert("tab")</script><a href="javascript:alert(1)">x</a>',
    },
    { title: 42, content: null },
  ],
  product_badges: [
    { label: "Staff pick", color: "#22C55E" },
    { label: "Low contrast", color: "#1e293b" },
    "Creator favourite",
    { label: "", color: "red" },
  ],
  status_text: "Undetected",
  status_color: "#16a34a",
  product_upsells: [{ upsell_product_id: 447097 }, "446893", { id: 447201 }, { upsell: "junk" }],
  show_sales_count: 1,
  sales_count_hours: "24",
} as const;

/** The tiers of a product as the emulated shop applies them: the highest quantity reached, percent off the line. */
export function emulatedTiers(product: unknown): Array<{ quantity: number; percent: number }> {
  const raw = (product as { volume_discounts?: unknown })?.volume_discounts;
  const list = typeof raw === "string" ? (JSON.parse(raw) as unknown[]) : Array.isArray(raw) ? raw : [];
  return list.flatMap((t) => {
    const entry = t as { quantity?: unknown; qty?: unknown; percentage?: unknown; percent?: unknown } | null;
    const quantity = Number(entry?.quantity ?? entry?.qty);
    const percent = Number(entry?.percentage ?? entry?.percent);
    return Number.isInteger(quantity) && percent > 0 && percent < 100 ? [{ quantity, percent }] : [];
  });
}

/** price × multiplier, half-up to cents, as the storefront's content prices it (the shop's own figures match). */
function priceString(base: number, multiplier: number): string {
  return (priceCents(base, multiplier) / 100).toFixed(2);
}

/**
 * The demo catalogue as SellAuth would list it (same ids, variant ids and prices), stock unlimited, plus one product
 * the content does not describe, one hidden product and one malformed product. `extra` more products follow (the
 * bench's 1,000-product shop).
 */
export function seedShopProducts({
  extra = 0,
  imageBase = "http://127.0.0.1:9",
}: {
  extra?: number;
  imageBase?: string;
} = {}): unknown[] {
  const demo = JSON.parse(fs.readFileSync(CONTENT_PRODUCTS, "utf8")) as ContentProduct[];
  const images = emulatedImages(imageBase);
  // The overlay gives every demo product images of its own, which win over these; the shop-only product has none.
  const demoImages: EmulatedImageFields[] = [
    images.imageUrl,
    images.malformed,
    images.list,
    images.cloudflareId,
    images.list,
    images.imageUrl,
  ];
  const products: unknown[] = demo.map((p, i) => ({
    id: p.id,
    name: p.name,
    path: p.slug,
    description: `<p>${p.description}</p>`,
    price: null,
    currency: "USD",
    stock: null,
    group_id: p.category === "utilities" ? 1 : 2,
    type: "variant",
    visibility: "public",
    products_sold: [120, 340, 80, 210, 260, 40][i % 6],
    stock_count: -1,
    ...demoImages[i % demoImages.length],
    ...emulatedExtras(p),
    variants: p.durations.flatMap((d) =>
      d.variantId === null
        ? []
        : [
            {
              id: d.variantId,
              product_id: p.id,
              name: d.label,
              description: null,
              price: priceString(p.price, d.multiplier),
              stock: -1,
            },
          ],
    ),
  }));
  products.push(
    {
      id: SHOP_ONLY_PRODUCT_ID,
      name: "Kestrel Relay",
      path: "relay",
      description:
        '<p>Remote desktop relay with <strong>end-to-end encryption</strong>.</p><script>alert("x")</script><p><a href="javascript:alert(1)">bad link</a> <a href="https://example.com/relay">Learn more</a></p>',
      price: null,
      currency: "USD",
      stock: null,
      group_id: 1,
      type: "variant",
      visibility: "public",
      products_sold: 5,
      stock_count: 10,
      ...EMULATED_DASHBOARD,
      // Struck-through prices: shown only once the sync has recorded 30 days of prices (price-history.server.ts).
      min_price_slash: "12.00",
      variants: [
        {
          id: 699000,
          product_id: SHOP_ONLY_PRODUCT_ID,
          name: "1 Month",
          description: null,
          price: "9.50",
          price_slash: "12.50",
          stock: 10,
        },
        { id: 699001, product_id: SHOP_ONLY_PRODUCT_ID, name: "Lifetime", description: null, price: 49, stock: 3 },
      ],
    },
    {
      id: HIDDEN_PRODUCT_ID,
      name: "Kestrel Internal",
      path: "internal",
      description: "<p>Staff only.</p>",
      price: null,
      currency: "USD",
      stock: null,
      group_id: 1,
      type: "variant",
      visibility: "hidden",
      products_sold: 0,
      stock_count: -1,
      ...images.list,
      variants: [
        { id: 699100, product_id: HIDDEN_PRODUCT_ID, name: "Lifetime", description: null, price: "1.00", stock: -1 },
      ],
    },
    MALFORMED_PRODUCT,
  );
  for (let i = 0; i < extra; i++) {
    const base = demo[i % demo.length]!;
    const id = 2_000_000 + i;
    products.push({
      id,
      name: `${base.name} Edition ${i}`,
      path: `${base.slug}-edition-${i}`,
      description: `<p>${base.description}</p>`,
      price: null,
      currency: "USD",
      stock: null,
      group_id: base.category === "utilities" ? 1 : 2,
      type: "variant",
      visibility: "public",
      products_sold: i % 500,
      stock_count: -1,
      variants: base.durations.map((d, j) => ({
        id: 3_000_000 + i * 10 + j,
        product_id: id,
        name: d.label,
        description: null,
        price: priceString(base.price + (i % 50), d.multiplier),
        stock: -1,
      })),
    });
  }
  return products;
}

export function seedFeedbacks(): EmulatedFeedback[] {
  return [
    {
      id: 9001,
      invoice_id: 5001,
      product_id: 446894,
      message: "Exports are fast and the licence arrived at once.",
      rating: 5,
      reply: "Thank you for your order!",
      is_automatic: false,
      created_at: "2026-11-20T10:00:00.000000Z",
    },
    {
      id: 9002,
      invoice_id: 5002,
      product_id: 446894,
      message: "Good, but the timeline needs more tracks.",
      rating: 4,
      reply: null,
      is_automatic: false,
      created_at: "2026-11-18T09:30:00.000000Z",
    },
    {
      id: 9003,
      invoice_id: 5003,
      product_id: 446889,
      message: "Works as described.",
      rating: 5,
      reply: null,
      is_automatic: false,
      created_at: "2026-11-15T08:00:00.000000Z",
    },
    {
      id: 9004,
      invoice_id: 5004,
      product_id: 446894,
      message: "Automatic feedback",
      rating: 5,
      reply: null,
      is_automatic: true,
      created_at: "2026-11-10T08:00:00.000000Z",
    },
  ];
}

export interface ShopCatalogueState {
  products: unknown[];
  groups: Array<{ id: number; name: string }>;
  feedbacks: EmulatedFeedback[];
  settings: {
    average_rating: string;
    total_feedbacks: number;
    hide_automatic_feedbacks_on_home: boolean;
    hide_stock_count?: boolean;
    products_sold_offset?: number;
    total_customers_offset?: number;
  };
  /** Every catalogue API answer waits this long (a slow shop). */
  delayMs: number;
  /** Catalogue API answers 503 (a shop that is down). */
  down: boolean;
}

export function createShopCatalogueState(
  options: { extraProducts?: number; imageBase?: string } = {},
): ShopCatalogueState {
  return {
    products: seedShopProducts({ extra: options.extraProducts ?? 0, imageBase: options.imageBase }),
    groups: [
      { id: 1, name: "Utilities" },
      { id: 2, name: "Creator Tools" },
    ],
    feedbacks: seedFeedbacks(),
    settings: {
      average_rating: "4.75",
      total_feedbacks: 4,
      hide_automatic_feedbacks_on_home: true,
      // What some hosted themes add to the real counts: never read (docs/shop.md).
      products_sold_offset: 5000,
      total_customers_offset: 1200,
    },
    delayMs: 0,
    down: false,
  };
}

function findVariant(state: ShopCatalogueState, productId: number, variantId: number): EmulatedVariant | undefined {
  const product = state.products.find((p) => (p as { id: number }).id === productId) as EmulatedProduct | undefined;
  return product?.variants?.find((v) => v.id === variantId);
}

/** Sets a variant's price (a decimal string, as the API sends it) or stock (−1: unlimited). */
export function updateVariant(
  state: ShopCatalogueState,
  productId: number,
  variantId: number,
  change: { price?: string; stock?: number },
) {
  const variant = findVariant(state, productId, variantId);
  if (!variant) throw new Error(`the emulated shop has no variant ${variantId} of product ${productId}`);
  if (change.price !== undefined) variant.price = change.price;
  if (change.stock !== undefined) variant.stock = change.stock;
}

/** Replaces a product's image fields with `fields` (none: the product has no images). */
export function setProductImages(state: ShopCatalogueState, productId: number, fields: EmulatedImageFields) {
  const product = state.products.find((p) => (p as { id: number }).id === productId) as
    | (EmulatedProduct & EmulatedImageFields)
    | undefined;
  if (!product) throw new Error(`the emulated shop has no product ${productId}`);
  delete product.images;
  delete product.image_url;
  delete product.cloudflare_image_id;
  Object.assign(product, fields);
}

/** The bytes of an emulated product image: an 800×500 SVG naming what it shows, so a test can tell images apart. */
export function emulatedImageSvg(name: string): string {
  const label = name.replace(/[^A-Za-z0-9 ._-]/g, "");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="500" viewBox="0 0 800 500"><rect width="800" height="500" fill="#0c4a6e"/><text x="400" y="260" fill="#e0f2fe" font-family="sans-serif" font-size="40" text-anchor="middle">${label}</text></svg>`;
}

/** A paid invoice takes its keys from stock; returns the products whose stock changed. */
export function takeStock(state: ShopCatalogueState, cart: unknown): number[] {
  const changed: number[] = [];
  for (const line of Array.isArray(cart) ? cart : []) {
    const { productId, variantId, quantity } = line as { productId?: number; variantId?: number; quantity?: number };
    const variant = productId && variantId ? findVariant(state, productId, variantId) : undefined;
    if (!variant || variant.stock < 0) continue;
    variant.stock = Math.max(0, variant.stock - (quantity ?? 1));
    const product = state.products.find((p) => (p as { id: number }).id === productId) as EmulatedProduct;
    product.products_sold += quantity ?? 1;
    changed.push(productId as number);
  }
  return changed;
}

/** The catalogue routes: answers `undefined` for a path that is not one of them. */
export function answerCatalogueRequest(
  state: ShopCatalogueState,
  shopId: string,
  url: URL,
): { status: number; body: unknown } | undefined {
  const shops = url.pathname === "/v1/shops";
  const scoped = url.pathname.match(/^\/v1\/shops\/([^/]+)\/(products|groups|feedbacks)(?:\/(\d+))?$/);
  if (!shops && !scoped) return undefined;
  if (state.down) return { status: 503, body: { message: "Service Unavailable" } };
  if (shops) {
    return {
      status: 200,
      body: [{ id: Number(shopId), name: "Kestrel Software", subdomain: "kestrel", ...state.settings }],
    };
  }
  if (scoped?.[1] !== shopId)
    return { status: 404, body: { message: "No query results for model [App\\Models\\Shop]" } };
  const [, , resource, id] = scoped;
  if (resource === "products" && id) {
    const product = state.products.find((p) => String((p as { id: unknown }).id) === id);
    return product
      ? { status: 200, body: product }
      : { status: 404, body: { message: "No query results for model [App\\Models\\Product]" } };
  }
  if (resource === "groups") return { status: 200, body: state.groups };
  const list = resource === "products" ? state.products : state.feedbacks;
  const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get("perPage") ?? 15) || 15));
  const page = Math.max(1, Number(url.searchParams.get("page") ?? 1) || 1);
  const lastPage = Math.max(1, Math.ceil(list.length / perPage));
  return {
    status: 200,
    body: {
      current_page: page,
      data: list.slice((page - 1) * perPage, page * perPage),
      last_page: lastPage,
      per_page: perPage,
      total: list.length,
    },
  };
}

/**
 * What the emulated shop charges for a cart, in cents, worked out on its own (integer arithmetic, not the
 * storefront's code): each line's variant price × quantity, less the highest volume-discount tier reached (none when a
 * coupon is given and the product disables tiers with coupons), rounded half-up; then the coupon's percent off.
 * Undefined when a line names no product or variant it sells; a string when the quantity is outside the product's bounds.
 */
export function chargeFor(
  state: ShopCatalogueState,
  cart: unknown,
  couponPercent: number | undefined,
): number | string | undefined {
  let total = 0;
  for (const line of Array.isArray(cart) ? cart : []) {
    const {
      productId,
      variantId,
      quantity = 1,
    } = line as { productId?: number; variantId?: number; quantity?: number };
    const product = state.products.find((p) => (p as { id: number }).id === productId) as
      | (EmulatedProduct & Record<string, unknown>)
      | undefined;
    const variant = product?.variants?.find((v) => v.id === variantId);
    if (!product || !variant) return undefined;
    const least = Number(product.quantity_min ?? 0) || 1;
    const most = Number(product.quantity_max ?? 0) || Number.POSITIVE_INFINITY;
    if (quantity < least || quantity > most)
      return `The quantity must be between ${least} and ${Number.isFinite(most) ? most : "any"}.`;
    const list = Math.round(Number(variant.price) * 100) * quantity;
    const tiersOff = couponPercent !== undefined && Boolean(Number(product.disable_volume_discounts_if_coupon));
    const reached = tiersOff
      ? undefined
      : emulatedTiers(product)
          .filter((t) => t.quantity <= quantity)
          .sort((a, b) => b.quantity - a.quantity)[0];
    const basisPoints = reached ? Math.round(reached.percent * 100) : 0;
    total += list - Math.floor((list * basisPoints + 5000) / 10000);
  }
  if (couponPercent !== undefined) total = Math.floor((total * (100 - couponPercent) + 50) / 100);
  return total;
}
