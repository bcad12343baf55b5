import type { Duration, Product } from "./catalog.content";

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

/** The total for a product's duration: the one price rule the page, checkout and orders all use. */
export function computeTotal(product: Product, duration: Duration, quantity = 1): number {
  // The shop's own variant price when it sets one: what the page shows is what the shop charges.
  if (duration.priceCents !== undefined) return duration.priceCents * quantity;
  return priceCents(product.price, duration.multiplier, quantity);
}

/** Base price in cents (what catalogue price filters compare against). */
export function basePriceCents(product: Product): number {
  return priceCents(product.price, 1);
}
