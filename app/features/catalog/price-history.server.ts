// The prices the shop sync sees, kept so that a reduction is only ever shown with the lowest price of the 30 days
// before it (EU Price Indication Directive 98/6/EC, Art. 6a, as amended by Directive (EU) 2019/2161): the lease holder
// records every variant's price at each sync, and the snapshot it writes carries, per variant, the lowest price of the
// last 30 days and since when prices have been recorded (docs/shop.md, "Struck-through prices").
import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema";
import type { ShopSnapshot } from "./shop-catalogue.server";

/** How far back the lowest price is looked for, and how much history a struck-through price needs. */
export const PRICE_REFERENCE_DAYS = 30;
const DAY_MS = 86_400_000;

/** Per variant (by id): the lowest price of the last 30 days and when the first recorded sighting was. */
export type PriceReferences = Record<string, { lowestCents: number; recordedSince: string }>;

/** Records the snapshot's prices (one row per variant, UTC day and price) and returns the references for each variant. */
export async function recordPrices(db: Kysely<Database>, snapshot: ShopSnapshot, now: Date): Promise<PriceReferences> {
  const at = now.toISOString();
  const day = at.slice(0, 10);
  const rows = snapshot.products.flatMap((product) =>
    product.variants.map((variant) => ({
      variant_id: variant.id,
      product_id: product.id,
      price_cents: variant.priceCents,
      currency: product.currency,
      day,
      first_seen_at: at,
      last_seen_at: at,
    })),
  );
  // In chunks: a thousand-product shop stays within every database's limit on bound parameters.
  for (let i = 0; i < rows.length; i += 100) {
    await db
      .insertInto("shop_price_history")
      .values(rows.slice(i, i + 100))
      .onConflict((oc) => oc.columns(["variant_id", "day", "price_cents"]).doUpdateSet({ last_seen_at: at }))
      .execute();
  }
  return priceReferences(db, now);
}

/**
 * Per variant: the lowest price of the 30 days before its current price began (the current price itself when it has
 * not changed within the records), and its first sighting. "Before it began": a reduction's own days never make it
 * its own reference.
 */
export async function priceReferences(db: Kysely<Database>, now: Date): Promise<PriceReferences> {
  const horizon = new Date(now.getTime() - 3 * PRICE_REFERENCE_DAYS * DAY_MS).toISOString();
  const [recent, first] = await Promise.all([
    db
      .selectFrom("shop_price_history")
      .select(["variant_id", "price_cents", "first_seen_at", "last_seen_at"])
      .where("last_seen_at", ">=", horizon)
      .execute(),
    db
      .selectFrom("shop_price_history")
      .select(["variant_id", (eb) => eb.fn.min("first_seen_at").as("first")])
      .groupBy("variant_id")
      .execute(),
  ]);
  const byVariant = new Map<number, typeof recent>();
  for (const row of recent) {
    const id = Number(row.variant_id);
    byVariant.set(id, [...(byVariant.get(id) ?? []), row]);
  }
  const references: PriceReferences = {};
  for (const row of first) {
    const id = Number(row.variant_id);
    const rows = byVariant.get(id);
    if (!rows?.length) continue;
    references[String(id)] = { lowestCents: lowestBefore(rows), recordedSince: String(row.first) };
  }
  return references;
}

type Sighting = { price_cents: number; first_seen_at: string; last_seen_at: string };

/** The lowest price in the 30 days before the current price's run began; the current price when nothing else is seen. */
export function lowestBefore(rows: readonly Sighting[]): number {
  const latest = rows.reduce((a, b) => (b.last_seen_at > a.last_seen_at ? b : a));
  const current = Number(latest.price_cents);
  const lastOther = rows
    .filter((r) => Number(r.price_cents) !== current)
    .reduce<string | null>((max, r) => (max === null || r.last_seen_at > max ? r.last_seen_at : max), null);
  const runStart = rows
    .filter((r) => Number(r.price_cents) === current && (lastOther === null || r.last_seen_at > lastOther))
    .reduce((min, r) => (r.first_seen_at < min ? r.first_seen_at : min), latest.first_seen_at);
  const from = new Date(Date.parse(runStart) - PRICE_REFERENCE_DAYS * DAY_MS).toISOString();
  const before = rows
    .filter((r) => r.last_seen_at < runStart && r.last_seen_at >= from)
    .map((r) => Number(r.price_cents));
  return before.length > 0 ? Math.min(...before) : current;
}

/** The snapshot with its prices recorded and the references it carries to every instance. */
export async function withPriceHistory(db: Kysely<Database>, snapshot: ShopSnapshot, now: Date) {
  return { ...snapshot, prices: await recordPrices(db, snapshot, now) };
}

/** Whether a variant's prices have been recorded for the whole reference period before `at`. */
export function hasFullHistory(reference: { recordedSince: string } | undefined, at: string): boolean {
  return (
    reference !== undefined && Date.parse(at) - Date.parse(reference.recordedSince) >= PRICE_REFERENCE_DAYS * DAY_MS
  );
}
