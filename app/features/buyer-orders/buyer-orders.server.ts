import { getProduct } from "~/features/catalog/catalogue.server";
import { getDb } from "~/platform/db.server";
import type { BuyerOrder, BuyerOrderSource, BuyerOrderStatus } from "./buyer-orders";

const DEMO_STATUS: Record<string, BuyerOrderStatus> = {
  pending: { kind: "pending" },
  completed: { kind: "paid" },
  refunded: { kind: "refunded" },
  failed: { kind: "cancelled" },
};

/** The demo checkout's own records: orders the demo shop took for an address, with the demo key it delivered. */
export function buyerOrderSource(): BuyerOrderSource {
  return {
    async ordersOf(email) {
      const rows = await getDb()
        .db.selectFrom("orders")
        .selectAll()
        .where("email", "=", email.toLowerCase())
        .orderBy("created_at", "desc")
        .orderBy("id")
        .execute();
      return rows.map((row): BuyerOrder => {
        const product = getProduct(row.product_id);
        const duration = product?.durations.find((d) => d.variantId === row.variant_id);
        const complete = row.status === "completed";
        return {
          id: row.id,
          createdAt: row.created_at,
          items: [
            {
              productName: product?.name ?? `#${row.product_id}`,
              durationLabel: duration?.label ?? null,
              quantity: row.quantity,
            },
          ],
          amount: (row.amount_cents / 100).toFixed(2),
          currency: "USD",
          status: DEMO_STATUS[row.status] ?? { kind: "unknown", shopSpelling: row.status },
          invoiceUrl: null,
          delivered: complete && row.demo_key ? [{ kind: "key", value: row.demo_key }] : [],
        };
      });
    },
  };
}
