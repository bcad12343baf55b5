import crypto from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import type { Database, OrdersTable, ShopNotificationsTable } from "../../../db/schema";

/** An order as read from the database. */
export type OrderRecord = Selectable<OrdersTable>;
import { getDb } from "~/platform/db.server";
import { orderIdSchema, type OrderStatusView } from "./orders";

/** What an order records of the checkout's cart line (the checkout's CheckoutCart carries these and more). */
export interface OrderLine {
  productId: number;
  variantId: number;
  quantity: number;
  /** What the shop will charge for the line, in cents. */
  amountCents: number;
  coupon?: string;
}

export async function createPendingOrder(
  db: Kysely<Database>,
  input: { provider: string; invoiceId: string | undefined; cart: OrderLine; now?: Date },
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
      shop_status: null,
      coupon: input.cart.coupon ?? null,
    })
    .execute();
  return id;
}

export async function getOrderStatus(db: Kysely<Database>, id: string): Promise<OrderStatusView | undefined> {
  const row = await db
    .selectFrom("orders")
    .select(["id", "status", "shop_status"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  return row.shop_status
    ? { id: row.id, status: row.status, shopStatus: row.shop_status }
    : { id: row.id, status: row.status };
}

export async function findOrderByInvoice(
  db: Kysely<Database>,
  provider: string,
  invoiceId: string,
): Promise<OrderRecord | undefined> {
  return db
    .selectFrom("orders")
    .selectAll()
    .where("provider", "=", provider)
    .where("provider_invoice_id", "=", invoiceId)
    .executeTakeFirst();
}

export async function listOrders(
  db: Kysely<Database>,
  options: { status?: OrdersTable["status"]; limit: number },
): Promise<OrderRecord[]> {
  let query = db.selectFrom("orders").selectAll().orderBy("created_at", "desc").orderBy("id").limit(options.limit);
  if (options.status) query = query.where("status", "=", options.status);
  return query.execute();
}

export async function findOrder(db: Kysely<Database>, id: string): Promise<OrderRecord | undefined> {
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

/** Which product an order is for (the success page names it); undefined for an id that is not one of our orders. */
export async function orderedProductId(
  orderId: string,
  db: Kysely<Database> = getDb().db,
): Promise<number | undefined> {
  if (!orderIdSchema.safeParse(orderId).success) return undefined;
  const row = await db.selectFrom("orders").select("product_id").where("id", "=", orderId).executeTakeFirst();
  return row?.product_id;
}

/**
 * Records who bought a demo order and the key the demo shop delivers with it. The address is stored lower-cased; a
 * key already recorded is kept, so paying twice never hands out a second one.
 */
export async function recordDemoDelivery(
  db: Kysely<Database>,
  input: { invoiceId: string; email: string; key: string },
): Promise<void> {
  const row = await db
    .selectFrom("orders")
    .select(["id", "delivered_key"])
    .where("provider", "=", "demo")
    .where("provider_invoice_id", "=", input.invoiceId)
    .executeTakeFirst();
  if (!row) return;
  await db
    .updateTable("orders")
    .set({ buyer_email: input.email.trim().toLowerCase(), delivered_key: row.delivered_key ?? input.key })
    .where("id", "=", row.id)
    .execute();
}

/** Every order recorded for this address (trimmed, lower-cased), newest first. */
export async function ordersOfBuyer(db: Kysely<Database>, email: string, limit = 500): Promise<OrderRecord[]> {
  return db
    .selectFrom("orders")
    .selectAll()
    .where("buyer_email", "=", email.trim().toLowerCase())
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(limit)
    .execute();
}
