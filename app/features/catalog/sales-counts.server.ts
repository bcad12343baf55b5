// "N sold in the last 24 hours" (issue 36): counted from the shop's own completed, not refunded invoices, for the
// products whose owner turned the count on (`show_sales_count`, over `sales_count_hours`). Never the shop's
// `products_sold_offset` or any other number added to the real ones (docs/shop.md, "Social proof that is true").
import { z } from "zod";
import { logger } from "~/platform/logger.server";
import type { ShopSnapshot } from "./shop-catalogue.server";
import type { SellAuthCatalogue } from "./sources/sellauth.server";

const HOUR_MS = 3_600_000;

const productRef = z.object({ id: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]) }).loose();
const invoiceSchema = z
  .object({
    status: z.string(),
    created_at: z.string(),
    completed_at: z.string().nullish(),
    refunded_at: z.string().nullish(),
    product_id: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).nullish(),
    product: productRef.nullish().catch(null),
    quantity: z.union([z.number().int().positive(), z.string().regex(/^\d+$/).transform(Number)]).nullish(),
    items: z
      .array(
        z
          .object({
            product: productRef.nullish(),
            product_id: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).nullish(),
            quantity: z.union([z.number().int().positive(), z.string().regex(/^\d+$/).transform(Number)]).nullish(),
          })
          .loose(),
      )
      .nullish()
      .catch(null),
  })
  .loose();

/** Keys sold per product id in each product's own window, from completed and not refunded invoices only. */
export function countSales(
  invoices: readonly unknown[],
  windows: ReadonlyMap<number, number>,
  now: Date,
): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const id of windows.keys()) counts[String(id)] = 0;
  for (const raw of invoices) {
    const parsed = invoiceSchema.safeParse(raw);
    if (!parsed.success) continue;
    const invoice = parsed.data;
    if (invoice.status !== "completed" || invoice.refunded_at) continue;
    const at = Date.parse(invoice.completed_at ?? invoice.created_at);
    if (!Number.isFinite(at)) continue;
    const lines = invoice.items?.length
      ? invoice.items.map((item) => ({ id: item.product?.id ?? item.product_id, quantity: item.quantity ?? 1 }))
      : [{ id: invoice.product?.id ?? invoice.product_id, quantity: invoice.quantity ?? 1 }];
    for (const line of lines) {
      const hours = line.id == null ? undefined : windows.get(line.id);
      if (hours === undefined || now.getTime() - at > hours * HOUR_MS || at > now.getTime()) continue;
      counts[String(line.id)] = (counts[String(line.id)] ?? 0) + line.quantity;
    }
  }
  return counts;
}

/** The snapshot with its sales counts, read only when a product shows one; a failed read leaves them out. */
export async function withSalesCounts(
  api: SellAuthCatalogue,
  snapshot: ShopSnapshot,
  now: Date,
): Promise<ShopSnapshot> {
  const windows = new Map<number, number>();
  for (const product of snapshot.products)
    if (product.visibility === "public" && product.extras?.showSalesCount)
      windows.set(product.id, product.extras.salesCountHours ?? 24);
  if (windows.size === 0) return snapshot;
  const longest = Math.max(...windows.values());
  try {
    const invoices = await api.invoicesSince(new Date(now.getTime() - longest * HOUR_MS));
    return { ...snapshot, salesCounts: countSales(invoices, windows, now) };
  } catch (error) {
    logger.warn({ err: error }, "the shop's invoices could not be read: no sales counts this sync");
    return snapshot;
  }
}
