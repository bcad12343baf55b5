// The product fields SellAuth's shop owners set up in its dashboard beyond names, prices and stock (docs/shop.md,
// "What the shop's dashboard adds"): volume discounts, quantity bounds, tabs, badges, a status line, products bought
// together and the sales count. Several are undocumented and come in more than one shape, so each field, and each
// entry of a list, is read on its own: a malformed one is skipped with a logged reason, never the product.
import { z } from "zod";
import { logger } from "~/platform/logger.server";
import { parsePriceCents } from "../pricing";

export interface ShopVolumeTier {
  quantity: number;
  percent: number;
}

export interface ShopTab {
  title: string;
  /** As the shop stores it: HTML, unsanitised (shop-catalogue.server.ts sanitises it like the description). */
  content: string;
}

export interface ShopBadge {
  label: string;
  /** `#rrggbb`, as the owner chose it; the page checks its contrast against the theme. */
  color: string | null;
}

/** What a product adds beyond names, prices and stock; each absent unless the shop set it (and it could be read). */
export interface ShopProductExtras {
  volumeDiscounts?: ShopVolumeTier[];
  disableVolumeDiscountsWithCoupon?: boolean;
  quantityMin?: number;
  quantityMax?: number;
  tabs?: ShopTab[];
  badges?: ShopBadge[];
  statusText?: string;
  statusColor?: string;
  /** Ids of the products the owner offers with this one ("Often bought together"). */
  upsells?: number[];
  /** The owner shows "N sold in the last H hours" on this product. */
  showSalesCount?: boolean;
  salesCountHours?: number;
  /** The product's struck-through "from" price (`min_price_slash`), in cents. */
  minPriceSlashCents?: number;
  /** Each variant's struck-through price (`price_slash`), in cents, by variant id. */
  variantSlashCents?: Record<string, number>;
}

const MAX_TIERS = 20;
const MAX_TABS = 10;
const MAX_BADGES = 6;
const MAX_UPSELLS = 8;
/** At most a year of hours: a longer window is no longer "recent". */
const MAX_SALES_HOURS = 24 * 365;

/** Laravel sends numbers as numbers or strings. */
const decimal = z.union([
  z.number().finite(),
  z
    .string()
    .trim()
    .regex(/^\d{1,6}(\.\d{1,4})?$/)
    .transform(Number),
]);
const wholeNumber = decimal.pipe(z.number().int());
const flag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(["0", "1", "true", "false"])])
  .transform((v) => v === true || v === 1 || v === "1" || v === "true");
const productId = z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number),
]);
/** `#rgb` or `#rrggbb` (with or without `#`), lower-cased to `#rrggbb`; anything else (names, rgb(), url()) is not read. */
export const shopColour = z
  .string()
  .trim()
  .regex(/^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/)
  .transform((value) => {
    const hex = value.replace("#", "").toLowerCase();
    return `#${hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex}`;
  });

/** One tier, seen as `{quantity, percentage}` and as `{qty, percent}` (numbers or decimal strings). */
const tier = z.union([
  z
    .object({ quantity: wholeNumber, percentage: decimal })
    .transform((t) => ({ quantity: t.quantity, percent: t.percentage })),
  z.object({ qty: wholeNumber, percent: decimal }).transform((t) => ({ quantity: t.qty, percent: t.percent })),
]);
const validTier = tier.refine((t) => t.quantity >= 2 && t.quantity <= 100 && t.percent > 0 && t.percent < 100, {
  message: "expected 2 to 100 keys and more than 0, less than 100 percent",
});
const tab = z
  .object({ title: z.string().trim().min(1).max(80), content: z.string().max(20_000) })
  .loose()
  .transform((t): ShopTab => ({ title: t.title, content: t.content }));
const badge = z.union([
  z
    .object({
      label: z.string().trim().min(1).max(40),
      color: z.unknown().optional(),
    })
    .loose()
    .transform((b): ShopBadge => {
      const colour = shopColour.safeParse(b.color);
      return { label: b.label, color: colour.success ? colour.data : null };
    }),
  z
    .string()
    .trim()
    .min(1)
    .max(40)
    .transform((label): ShopBadge => ({ label, color: null })),
]);
/** An upsell as a product id, or an object naming one (`{id}`, `{product_id}`, `{upsell_product_id}`). */
const upsell = z.union([
  productId,
  z
    .object({ upsell_product_id: productId })
    .loose()
    .transform((u) => u.upsell_product_id),
  z
    .object({ product_id: productId })
    .loose()
    .transform((u) => u.product_id),
  z
    .object({ id: productId })
    .loose()
    .transform((u) => u.id),
]);

/** Lists may come as JSON text (a Laravel column cast to string), as an object keyed 0, 1, … or as a list. */
function asList(value: unknown): unknown[] | null {
  let v = value;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      return null;
    }
  }
  if (Array.isArray(v)) return v;
  if (v && typeof v === "object") return Object.values(v);
  return null;
}

function describe(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join(".") || "value"}: ${i.message}`).join("; ");
}

/** A reason logged once per product, field and reason (a sync every few minutes would repeat it otherwise). */
const logged = new Set<string>();
function skip(productIdOf: number, field: string, reason: string, skipped: string[]) {
  const note = `${field}: ${reason}`;
  skipped.push(note);
  const key = `${productIdOf}:${note}`;
  if (logged.has(key)) return;
  if (logged.size > 10_000) logged.clear();
  logged.add(key);
  logger.warn({ productId: productIdOf, field, reason }, "shop field skipped: malformed");
}

/** Each entry of a list field read alone; a malformed entry is skipped (and said why), the others kept. */
function readList<T>(
  raw: Record<string, unknown>,
  field: string,
  schema: z.ZodType<T>,
  max: number,
  id: number,
  skipped: string[],
): T[] | undefined {
  const value = raw[field];
  if (value === undefined || value === null) return undefined;
  const list = asList(value);
  if (list === null) {
    skip(id, field, `expected a list, got ${typeof value}`, skipped);
    return undefined;
  }
  const read: T[] = [];
  list.forEach((entry, index) => {
    const parsed = schema.safeParse(entry);
    if (parsed.success) read.push(parsed.data);
    else skip(id, `${field}[${index}]`, describe(parsed.error), skipped);
  });
  return read.slice(0, max);
}

function readOne<T>(
  raw: Record<string, unknown>,
  field: string,
  schema: z.ZodType<T>,
  id: number,
  skipped: string[],
): T | undefined {
  const value = raw[field];
  if (value === undefined || value === null || value === "") return undefined;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  skip(id, field, describe(parsed.error), skipped);
  return undefined;
}

/**
 * The dashboard's fields of one product (`raw`, as the API sent it), each read defensively. `skipped` says what was
 * left out and why (also logged, once). Absent fields stay absent, so a product without them reads as it did.
 */
export function readShopExtras(raw: unknown, id: number): { extras: ShopProductExtras; skipped: string[] } {
  const skipped: string[] = [];
  const extras: ShopProductExtras = {};
  if (!raw || typeof raw !== "object") return { extras, skipped };
  const r = raw as Record<string, unknown>;

  const tiers = readList(r, "volume_discounts", validTier, MAX_TIERS, id, skipped);
  if (tiers?.length) {
    // One tier per quantity: the first the shop lists wins.
    const byQuantity = new Map<number, ShopVolumeTier>();
    for (const t of tiers) if (!byQuantity.has(t.quantity)) byQuantity.set(t.quantity, t);
    extras.volumeDiscounts = [...byQuantity.values()].sort((a, b) => a.quantity - b.quantity);
  }
  const noTiersWithCoupon = readOne(r, "disable_volume_discounts_if_coupon", flag, id, skipped);
  if (noTiersWithCoupon) extras.disableVolumeDiscountsWithCoupon = true;

  const bound = wholeNumber.pipe(z.number().int().min(0).max(100_000));
  const min = readOne(r, "quantity_min", bound, id, skipped);
  const max = readOne(r, "quantity_max", bound, id, skipped);
  // 0 is how the dashboard says "no bound".
  if (min !== undefined && min > 0) extras.quantityMin = min;
  if (max !== undefined && max > 0) {
    if (extras.quantityMin !== undefined && max < extras.quantityMin)
      skip(id, "quantity_max", `${max} is below quantity_min ${extras.quantityMin}`, skipped);
    else extras.quantityMax = max;
  }

  const tabs = readList(r, "product_tabs", tab, MAX_TABS, id, skipped);
  if (tabs?.length) extras.tabs = tabs;
  const badges = readList(r, "product_badges", badge, MAX_BADGES, id, skipped);
  if (badges?.length) extras.badges = badges;
  const statusText = readOne(r, "status_text", z.string().trim().min(1).max(120), id, skipped);
  if (statusText) {
    extras.statusText = statusText;
    const statusColor = readOne(r, "status_color", shopColour, id, skipped);
    if (statusColor) extras.statusColor = statusColor;
  }
  const upsells = readList(r, "product_upsells", upsell, MAX_UPSELLS * 2, id, skipped);
  if (upsells?.length) extras.upsells = [...new Set(upsells)].filter((u) => u !== id).slice(0, MAX_UPSELLS);

  const showSales = readOne(r, "show_sales_count", flag, id, skipped);
  if (showSales) {
    extras.showSalesCount = true;
    const hours = readOne(
      r,
      "sales_count_hours",
      wholeNumber.pipe(z.number().int().min(1).max(MAX_SALES_HOURS)),
      id,
      skipped,
    );
    extras.salesCountHours = hours ?? 24;
  }
  const slashPrice = z.unknown().transform((value, ctx) => {
    const cents = parsePriceCents(value);
    if (cents === null || cents === 0) ctx.addIssue({ code: "custom", message: "expected a price above 0" });
    return cents ?? 0;
  });
  const minSlash = readOne(r, "min_price_slash", slashPrice, id, skipped);
  if (minSlash) extras.minPriceSlashCents = minSlash;
  if (Array.isArray(r.variants)) {
    const slashes: Record<string, number> = {};
    r.variants.forEach((variant, index) => {
      if (!variant || typeof variant !== "object") return;
      const v = variant as Record<string, unknown>;
      const variantId = productId.safeParse(v.id);
      const cents = readOne(v, "price_slash", slashPrice, id, skipped);
      if (cents && variantId.success) slashes[String(variantId.data)] = cents;
      else if (cents) skip(id, `variants[${index}].price_slash`, "the variant has no id", skipped);
    });
    if (Object.keys(slashes).length > 0) extras.variantSlashCents = slashes;
  }
  return { extras, skipped };
}
