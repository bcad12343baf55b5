// Where the recent-sales notice's sales come from (issue 36, docs/shop.md): a connected shop's invoices, or the demo
// checkout's own local orders. Read on the server, kept for a minute, and cut down to product, duration, country
// code and hour before anything leaves this module.
import type { Kysely } from "kysely";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import { getProduct, shopInvoicesSince } from "~/features/catalog/catalogue.server";
import type { AnyLocale } from "~/features/i18n/locales";
import { getContent } from "~/features/content/content.server";
import { getDb } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { logger } from "~/platform/logger.server";
import type { Database } from "../../../db/schema";
import {
  MAX_RECENT_SALES,
  MIN_RECENT_SALES,
  RECENT_SALES_WINDOW_MS,
  type RecentSale,
  roundedToHour,
} from "./recent-sales";

/** A sale before it is named: ids, country and time only. */
export interface Sale {
  productId: number;
  variantId: number | null;
  country: string | null;
  atMs: number;
}

const wireId = z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number),
]);
const ref = z.object({ id: wireId }).loose().nullish().catch(null);
const invoiceSchema = z
  .object({
    status: z.string(),
    created_at: z.string(),
    completed_at: z.string().nullish().catch(null),
    refunded_at: z.unknown().optional(),
    country_code: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/)
      .nullish()
      .catch(null),
    product_id: wireId.nullish().catch(null),
    variant_id: wireId.nullish().catch(null),
    product: ref,
    variant: ref,
    items: z
      .array(
        z
          .object({
            product: ref,
            variant: ref,
            product_id: wireId.nullish().catch(null),
            variant_id: wireId.nullish().catch(null),
          })
          .loose(),
      )
      .nullish()
      .catch(null),
  })
  .loose();

/** The shop's completed, not refunded invoices of the window as sales (one per line); anything else is left out. */
export function salesFromShopInvoices(invoices: readonly unknown[], now: number): Sale[] {
  const sales: Sale[] = [];
  for (const raw of invoices) {
    const parsed = invoiceSchema.safeParse(raw);
    if (!parsed.success) continue;
    const d = parsed.data;
    if (d.status.toLowerCase() !== "completed" || (d.refunded_at !== undefined && d.refunded_at !== null)) continue;
    const atMs = Date.parse(d.completed_at ?? d.created_at);
    if (!Number.isFinite(atMs) || atMs > now || now - atMs > RECENT_SALES_WINDOW_MS) continue;
    const lines = d.items?.length
      ? d.items.map((i) => ({ productId: i.product?.id ?? i.product_id, variantId: i.variant?.id ?? i.variant_id }))
      : [{ productId: d.product?.id ?? d.product_id, variantId: d.variant?.id ?? d.variant_id }];
    for (const line of lines)
      if (line.productId)
        sales.push({
          productId: line.productId,
          variantId: line.variantId ?? null,
          country: d.country_code ?? null,
          atMs,
        });
  }
  return sales;
}

/** The demo checkout's own completed (not refunded, not failed) orders of the window: real, local, no country. */
export async function salesFromLocalOrders(db: Kysely<Database>, now: number): Promise<Sale[]> {
  const rows = await db
    .selectFrom("orders")
    .select(["product_id", "variant_id", "completed_at"])
    .where("status", "=", "completed")
    .where("completed_at", "is not", null)
    .where("completed_at", ">=", new Date(now - RECENT_SALES_WINDOW_MS).toISOString())
    .orderBy("completed_at", "desc")
    .limit(100)
    .execute();
  return rows.flatMap((row) => {
    const atMs = Date.parse(row.completed_at ?? "");
    return Number.isFinite(atMs) && atMs <= now
      ? [{ productId: row.product_id, variantId: row.variant_id, country: null, atMs }]
      : [];
  });
}

type NameOf = (productId: number, variantId: number | null) => { product: string; variant: string | null } | undefined;

/**
 * What the browser may see: sales of products the catalogue lists, newest first, at most 10, the time rounded to the
 * hour; nothing at all when fewer than 3 real sales fall in the last 7 days.
 */
export function presentRecentSales(sales: readonly Sale[], now: number, nameOf: NameOf): RecentSale[] {
  const inWindow = sales.filter((s) => s.atMs <= now && now - s.atMs <= RECENT_SALES_WINDOW_MS);
  if (inWindow.length < MIN_RECENT_SALES) return [];
  return [...inWindow]
    .sort((a, b) => b.atMs - a.atMs)
    .flatMap((sale): RecentSale[] => {
      const names = nameOf(sale.productId, sale.variantId);
      return names
        ? [{ product: names.product, variant: names.variant, country: sale.country, at: roundedToHour(sale.atMs) }]
        : [];
    })
    .slice(0, MAX_RECENT_SALES);
}

const catalogueNames =
  (locale: AnyLocale): NameOf =>
  (productId, variantId) => {
    const product = getProduct(productId, locale);
    if (!product) return undefined;
    return { product: product.name, variant: product.durations.find((d) => d.variantId === variantId)?.label ?? null };
  };

/** Kept for a minute: every visitor's notice costs the shop (or the database) one read a minute per instance. */
export const RECENT_SALES_CACHE_MS = 60_000;

export type RecentSalesReader = (locale: AnyLocale) => Promise<RecentSale[]>;

/** The notice's sales for this configuration: none unless `recentSales` is on in content/site.json. */
export function createRecentSalesReader(options: {
  enabled: () => boolean;
  readSales: (now: number) => Promise<Sale[]>;
  nameOf: (locale: AnyLocale) => NameOf;
  now?: () => number;
}): RecentSalesReader {
  const now = options.now ?? Date.now;
  const cache = new LRUCache<"sales", Sale[]>({
    max: 1,
    ttl: RECENT_SALES_CACHE_MS,
    ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
    fetchMethod: async () => {
      try {
        return await options.readSales(now());
      } catch (error) {
        logger.warn({ err: (error as Error).message }, "recent sales could not be read: no notice for now");
        return [];
      }
    },
  });
  return async (locale) => {
    if (!options.enabled()) return [];
    const sales = (await cache.fetch("sales")) ?? [];
    return presentRecentSales(sales, now(), options.nameOf(locale));
  };
}

let reader: RecentSalesReader | undefined;

/** The process's one reader: the connected shop's invoices, or (content catalogue) the demo checkout's orders. */
export function recentSalesReader(): RecentSalesReader {
  reader ??= createRecentSalesReader({
    enabled: () => getContent().site.recentSales,
    readSales: async (now) =>
      getEnv().CATALOG_SOURCE === "sellauth"
        ? salesFromShopInvoices(await shopInvoicesSince(new Date(now - RECENT_SALES_WINDOW_MS)), now)
        : salesFromLocalOrders(getDb().db, now),
    nameOf: catalogueNames,
  });
  return reader;
}
