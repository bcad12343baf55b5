import type { Kysely } from "kysely";
import { getProduct } from "~/features/catalog/catalogue.server";
import { formatCents } from "~/features/catalog/pricing";
import { type OrderRecord, ordersOfBuyer } from "~/features/orders/orders.server";
import type { Database } from "../../../../db/schema";
import type { BuyerOrder, BuyerOrderStatus } from "../buyer-orders";

/** What a product and duration are called, when the catalogue still has them. */
export type NameProduct = (
  productId: number,
  variantId: number,
) => { productName: string; durationLabel: string | null };

const catalogueNames: NameProduct = (productId, variantId) => {
  const product = getProduct(productId);
  return {
    productName: product?.name ?? `Product ${productId}`,
    durationLabel: product?.durations.find((d) => d.variantId === variantId)?.label ?? null,
  };
};

const DEMO_STATUS: Record<OrderRecord["status"], BuyerOrderStatus> = {
  pending: { kind: "pending" },
  completed: { kind: "paid" },
  // The demo shop's "failed" is a payment that did not happen.
  failed: { kind: "cancelled" },
  refunded: { kind: "refunded" },
};

export function demoBuyerOrder(order: OrderRecord, names: NameProduct = catalogueNames): BuyerOrder {
  const { productName, durationLabel } = names(order.product_id, order.variant_id);
  const status = DEMO_STATUS[order.status];
  return {
    id: order.id,
    createdAt: new Date(order.created_at).toISOString(),
    items: [{ productName, durationLabel, quantity: order.quantity }],
    amount: formatCents(order.amount_cents),
    currency: "USD",
    status,
    invoiceUrl: order.provider_invoice_id ? `/demo-checkout/${encodeURIComponent(order.provider_invoice_id)}` : null,
    // The key only once paid; never for a refunded (or any other) order.
    delivered:
      status.kind === "paid" && order.delivered_key
        ? [{ kind: "key", value: order.delivered_key, label: productName }]
        : [],
  };
}

/** The demo checkout's own records: every order the demo shop recorded for the address, newest first. */
export function createDemoBuyerOrders(db: () => Kysely<Database>, names: NameProduct = catalogueNames) {
  return {
    ordersAvailable: true,
    async ordersOf(email: string): Promise<BuyerOrder[]> {
      const rows = await ordersOfBuyer(db(), email);
      return rows.map((order) => demoBuyerOrder(order, names));
    },
  };
}
