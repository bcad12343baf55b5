import crypto from "node:crypto";
import type { Kysely } from "kysely";
import type { CheckoutCart } from "~/features/checkout/checkout";
import type { Database, OrdersTable, ShopNotificationsTable } from "../../../db/schema";
import type { OrderStatusView } from "./orders";

export async function createPendingOrder(
  db: Kysely<Database>,
  input: { provider: string; invoiceId: string | undefined; cart: CheckoutCart; now?: Date },
): Promise<string> {
  const id = crypto.randomUUID();
  await db
    .insertInto("orders")
    .values({
      id,
      provider: input.provider,
      provider_invoice_id: input.invoiceId ?? null,
      product_id: input.cart.productId,
      variant_id: input.cart.variantId,
      quantity: input.cart.quantity,
      amount_cents: input.cart.amountCents,
      status: "pending",
      created_at: (input.now ?? new Date()).toISOString(),
      completed_at: null,
      raw_event_id: null,
    })
    .execute();
  return id;
}

export async function getOrderStatus(db: Kysely<Database>, id: string): Promise<OrderStatusView | undefined> {
  const row = await db.selectFrom("orders").select(["id", "status"]).where("id", "=", id).executeTakeFirst();
  return row ? { id: row.id, status: row.status } : undefined;
}

export async function findOrderByInvoice(db: Kysely<Database>, provider: string, invoiceId: string): Promise<OrdersTable | undefined> {
  return db.selectFrom("orders").selectAll().where("provider", "=", provider).where("provider_invoice_id", "=", invoiceId).executeTakeFirst();
}

export async function listOrders(db: Kysely<Database>, options: { status?: OrdersTable["status"]; limit: number }): Promise<OrdersTable[]> {
  let query = db.selectFrom("orders").selectAll().orderBy("created_at", "desc").orderBy("id").limit(options.limit);
  if (options.status) query = query.where("status", "=", options.status);
  return query.execute();
}

export async function findOrder(db: Kysely<Database>, id: string): Promise<OrdersTable | undefined> {
  return db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Shop notifications as recorded (newest first), e.g. only those for invoices no order matched. */
export async function listShopNotifications(
  db: Kysely<Database>,
  options: { invoiceId?: string; outcome?: string; limit: number },
): Promise<ShopNotificationsTable[]> {
  let query = db.selectFrom("shop_notifications").selectAll().orderBy("received_at", "desc").limit(options.limit);
  if (options.invoiceId !== undefined) query = query.where("invoice_id", "=", options.invoiceId);
  if (options.outcome !== undefined) query = query.where("outcome", "=", options.outcome);
  return query.execute();
}
