import type { Duration, Product, VolumeTier } from "./catalog.content";

/** A JS number as an exact decimal: digits × 10^-scale, taken from its shortest round-trip text. */
function toDecimal(n: number): { digits: bigint; scale: number } {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite number: ${n}`);
  let text = String(n);
  if (/e/i.test(text)) text = n.toFixed(20).replace(/0+$/, "");
  const negative = text.startsWith("-");
  const [whole = "0", fraction = ""] = text.replace("-", "").split(".");
  const digits = BigInt(whole + fraction) * (negative ? -1n : 1n);
  return { digits, scale: fraction.length };
}

/** base × multiplier in cents, rounded half-up in exact decimal arithmetic (39.99 × 7.5 = 299.925 → 29993). */
export function priceCents(base: number, multiplier: number, quantity = 1): number {
  const a = toDecimal(base);
  const b = toDecimal(multiplier);
  const product = a.digits * b.digits * BigInt(quantity);
  const scale = a.scale + b.scale;
  if (scale <= 2) return Number(product * 10n ** BigInt(2 - scale));
  const divisor = 10n ** BigInt(scale - 2);
  let cents = product / divisor;
  if ((product % divisor) * 2n >= divisor) cents += 1n;
  return Number(cents);
}

export function formatCents(cents: number): string {
  return (cents / 100).toFixed(2);
}

export function formatUsd(cents: number): string {
  return `$${formatCents(cents)}`;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** `$14.99`, `€14.99`, `CA$14.99`: an amount in the currency the shop charges. */
export function formatPrice(cents: number, currency = "USD"): string {
  if (currency === "USD") return formatUsd(cents);
  let format = moneyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat("en-US", { style: "currency", currency });
    moneyFormats.set(currency, format);
  }
  return format.format(cents / 100);
}

/**
 * A price as the shop's API sends it (a number, or a decimal string as Laravel APIs often do) in whole cents, exactly:
 * "14.99" → 1499. Null for anything that is not a non-negative decimal amount.
 */
export function parsePriceCents(value: unknown): number | null {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  if (!/^\d{1,12}(\.\d{1,8})?$/.test(text)) return null;
  return priceCents(Number(text), 1);
}

export function findDuration(product: Product, value: string): Duration | undefined {
  return product.durations.find((d) => d.value === value);
}

/** What a product's volume discounts need: its tiers and whether a coupon turns them off. */
export type VolumeDiscounts = Partial<Pick<Product, "volumeDiscounts" | "disableVolumeDiscountsWithCoupon">>;

/** Whether the buyer entered a coupon code (the shop decides whether it applies; a code may turn tiers off). */
export interface PriceOptions {
  coupon?: string | boolean;
}

/** The tiers that apply to a checkout: none when a coupon is entered and the shop turns them off for coupons. */
function activeTiers(product: VolumeDiscounts, { coupon }: PriceOptions): readonly VolumeTier[] {
  if (coupon && product.disableVolumeDiscountsWithCoupon) return [];
  return product.volumeDiscounts ?? [];
}

/** The highest tier `quantity` keys reach (the one with the largest quantity at or below it), if any. */
export function volumeTierFor(product: VolumeDiscounts, quantity: number, options: PriceOptions = {}) {
  let reached: VolumeTier | undefined;
  for (const tier of activeTiers(product, options))
    if (tier.quantity <= quantity && (!reached || tier.quantity > reached.quantity)) reached = tier;
  return reached;
}

/** The next tier above `quantity` and how many more keys reach it ("Add 2 more to save 10%"), if any. */
export function nextVolumeTier(
  product: VolumeDiscounts,
  quantity: number,
  maxQuantity: number,
  options: PriceOptions = {},
): { tier: VolumeTier; more: number } | undefined {
  const current = volumeTierFor(product, quantity, options);
  let next: VolumeTier | undefined;
  for (const tier of activeTiers(product, options)) {
    if (tier.quantity <= quantity || tier.quantity > maxQuantity) continue;
    if (current && tier.percent <= current.percent) continue;
    if (!next || tier.quantity < next.quantity) next = tier;
  }
  return next ? { tier: next, more: next.quantity - quantity } : undefined;
}

/** The tiers in the order a buyer reads them, by quantity. */
export function sortedVolumeTiers(product: VolumeDiscounts): VolumeTier[] {
  return [...(product.volumeDiscounts ?? [])].sort((a, b) => a.quantity - b.quantity);
}

/** `percent` % of `cents`, rounded half-up to the cent in exact decimal arithmetic (12.5% of 1999 = 249.875 → 250). */
export function percentOfCents(cents: number, percent: number): number {
  const p = toDecimal(percent);
  const product = BigInt(cents) * p.digits;
  const divisor = 100n * 10n ** BigInt(p.scale);
  let result = product / divisor;
  if ((product % divisor) * 2n >= divisor) result += 1n;
  return Number(result);
}

/** One checkout line priced: the list amount, the volume discount taken off it (if a tier is reached), the total. */
export interface PriceLine {
  listCents: number;
  discount?: { tier: VolumeTier; cents: number };
  totalCents: number;
}

/**
 * The one price rule the page, checkout and orders all use: unit price × quantity (the shop's own variant price when
 * it sets one), less the highest volume-discount tier reached, rounded half-up to the cent on the line's total.
 */
export function priceLine(product: Product, duration: Duration, quantity = 1, options: PriceOptions = {}): PriceLine {
  const listCents =
    duration.priceCents !== undefined
      ? duration.priceCents * quantity
      : priceCents(product.price, duration.multiplier, quantity);
  const tier = volumeTierFor(product, quantity, options);
  if (!tier) return { listCents, totalCents: listCents };
  const cents = percentOfCents(listCents, tier.percent);
  return { listCents, discount: { tier, cents }, totalCents: listCents - cents };
}

/** The total for a product's duration and quantity, volume discount included: what the page shows is what is charged. */
export function computeTotal(product: Product, duration: Duration, quantity = 1, options: PriceOptions = {}): number {
  return priceLine(product, duration, quantity, options).totalCents;
}

/** Base price in cents (what catalogue price filters compare against). */
export function basePriceCents(product: Product): number {
  return priceCents(product.price, 1);
}
