import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckoutCart } from "~/features/checkout/checkout";
import type { InvoiceLookup } from "~/features/checkout/checkout-provider";
import { createPendingOrder, getOrderStatus } from "~/features/orders/orders.server";
import {
  type NotificationContext,
  receiveShopNotification,
  signShopNotification,
} from "~/features/orders/shop-notifications.server";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";

const dialects = await testDialects();
const SECRET = crypto.randomBytes(32).toString("hex");
const cart: CheckoutCart = {
  productId: 446894,
  productName: "Kestrel Studio",
  variantId: 653023,
  durationLabel: "Lifetime",
  quantity: 1,
  amountCents: 29993,
};
const nowSeconds = () => String(Math.floor(Date.now() / 1000));

function delivery(
  body: object,
  overrides: { secret?: string; timestamp?: string; idempotencyKey?: string; signature?: string } = {},
) {
  const raw = Buffer.from(JSON.stringify(body));
  return {
    raw,
    headers: {
      signature: overrides.signature ?? signShopNotification(raw, overrides.secret ?? SECRET),
      timestamp: overrides.timestamp ?? nowSeconds(),
      idempotencyKey: overrides.idempotencyKey ?? crypto.randomUUID(),
    },
  };
}

const paid = (invoiceId: string) => ({
  event: "NOTIFICATION.SHOP_INVOICE_PROCESSED",
  data: { invoice_id: invoiceId },
  shop_id: 151480,
});

describe.each(dialects)("shop notifications on %s", (dialect) => {
  let database: TestDatabase;
  let context: NotificationContext;
  const newOrder = async (invoiceId: string) =>
    createPendingOrder(database.handle.db, { provider: "sellauth", invoiceId, cart });

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    context = { db: database.handle.db, secret: SECRET, provider: "sellauth", shopId: "151480" };
  });
  afterAll(async () => {
    await database.drop();
  });

  it("completes the order on a correctly signed paid-invoice notification", async () => {
    const orderId = await newOrder("1001");
    const { raw, headers } = delivery(paid("1001"));
    expect(await receiveShopNotification(context, raw, headers)).toEqual({
      status: 200,
      body: { ok: true, outcome: "completed" },
    });
    const order = await database.handle.db
      .selectFrom("orders")
      .selectAll()
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    expect(order.status).toBe("completed");
    expect(order.completed_at).not.toBeNull();
    expect(order.raw_event_id).toBe(headers.idempotencyKey);
  });

  it("refuses a bad signature with 401 and changes nothing", async () => {
    const orderId = await newOrder("1002");
    const wrongSecret = delivery(paid("1002"), { secret: "not-the-secret" });
    expect((await receiveShopNotification(context, wrongSecret.raw, wrongSecret.headers)).status).toBe(401);
    const { raw, headers } = delivery(paid("1002"));
    const tampered = Buffer.from(raw.toString().replace("1002", "1003"));
    expect(await receiveShopNotification(context, tampered, headers)).toEqual({
      status: 401,
      body: { error: "Invalid signature" },
    });
    expect(await receiveShopNotification(context, raw, { ...headers, signature: undefined })).toEqual({
      status: 401,
      body: { error: "Invalid signature" },
    });
    expect((await getOrderStatus(database.handle.db, orderId))?.status).toBe("pending");
    const recorded = await database.handle.db
      .selectFrom("shop_notifications")
      .select("idempotency_key")
      .where("invoice_id", "=", "1002")
      .execute();
    expect(recorded).toEqual([]);
  });

  it("refuses a stale or missing X-Timestamp with 401, even when the signature is good", async () => {
    await newOrder("1004");
    const sixMinutesAgo = String(Math.floor(Date.now() / 1000) - 6 * 60);
    const stale = delivery(paid("1004"), { timestamp: sixMinutesAgo });
    expect(await receiveShopNotification(context, stale.raw, stale.headers)).toEqual({
      status: 401,
      body: { error: "Missing or stale X-Timestamp" },
    });
    const missing = delivery(paid("1004"));
    expect(
      (await receiveShopNotification(context, missing.raw, { ...missing.headers, timestamp: undefined })).status,
    ).toBe(401);
    const fourMinutesAgoMs = delivery(paid("1004"), { timestamp: String(Date.now() - 4 * 60 * 1000) });
    expect((await receiveShopNotification(context, fourMinutesAgoMs.raw, fourMinutesAgoMs.headers)).status).toBe(200);
  });

  it("handles a replayed delivery (same Idempotency-Key) once", async () => {
    const orderId = await newOrder("1005");
    const first = delivery(paid("1005"), { idempotencyKey: "evt-1005" });
    expect((await receiveShopNotification(context, first.raw, first.headers)).body).toEqual({
      ok: true,
      outcome: "completed",
    });
    // The shop retries up to 3 times; a later refund must not be undone by a replay of the payment.
    await database.handle.db.updateTable("orders").set({ status: "refunded" }).where("id", "=", orderId).execute();
    const replay = delivery(paid("1005"), { idempotencyKey: "evt-1005" });
    expect(await receiveShopNotification(context, replay.raw, replay.headers)).toEqual({
      status: 200,
      body: { ok: true, outcome: "completed", duplicate: true },
    });
    expect((await getOrderStatus(database.handle.db, orderId))?.status).toBe("refunded");
    const rows = await database.handle.db
      .selectFrom("shop_notifications")
      .selectAll()
      .where("idempotency_key", "=", "evt-1005")
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("records concurrent deliveries of one notification exactly once", async () => {
    await newOrder("1006");
    const one = delivery(paid("1006"), { idempotencyKey: "evt-1006" });
    const replies = await Promise.all([1, 2, 3].map(() => receiveShopNotification(context, one.raw, one.headers)));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(replies.filter((r) => "duplicate" in r.body && r.body.duplicate)).toHaveLength(2);
    const rows = await database.handle.db
      .selectFrom("shop_notifications")
      .select("idempotency_key")
      .where("invoice_id", "=", "1006")
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("records a notification for an invoice it does not know instead of dropping it", async () => {
    const { raw, headers } = delivery(paid("777777"));
    expect(await receiveShopNotification(context, raw, headers)).toEqual({
      status: 200,
      body: { ok: true, outcome: "unknown_invoice" },
    });
    const row = await database.handle.db
      .selectFrom("shop_notifications")
      .selectAll()
      .where("invoice_id", "=", "777777")
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      event: "NOTIFICATION.SHOP_INVOICE_PROCESSED",
      outcome: "unknown_invoice",
      order_id: null,
    });
  });

  it("ignores another shop's notification and events that do not change an order", async () => {
    const orderId = await newOrder("1007");
    const foreign = delivery({ ...paid("1007"), shop_id: 1 });
    expect((await receiveShopNotification(context, foreign.raw, foreign.headers)).body).toEqual({
      ok: true,
      outcome: "wrong_shop",
    });
    const created = delivery({ event: "NOTIFICATION.SHOP_INVOICE_CREATED", data: { invoice_id: 1007 } });
    expect((await receiveShopNotification(context, created.raw, created.headers)).body).toEqual({
      ok: true,
      outcome: "ignored",
    });
    expect((await getOrderStatus(database.handle.db, orderId))?.status).toBe("pending");
  });

  it("asks the shop for the invoice's real state when it can (API key)", async () => {
    const orderId = await newOrder("1008");
    let shopSays: InvoiceLookup = { outcome: "other" };
    const withLookup: NotificationContext = { ...context, lookupInvoice: async () => shopSays };
    const early = delivery(paid("1008"));
    expect((await receiveShopNotification(withLookup, early.raw, early.headers)).body).toEqual({
      ok: true,
      outcome: "unchanged",
    });
    expect((await getOrderStatus(database.handle.db, orderId))?.status).toBe("pending");
    shopSays = { error: "Invoice lookup failed (HTTP 500)" };
    const unanswered = delivery(paid("1008"));
    expect(await receiveShopNotification(withLookup, unanswered.raw, unanswered.headers)).toEqual({
      status: 502,
      body: { error: "Invoice lookup failed (HTTP 500)" },
    });
    shopSays = { outcome: "paid" };
    // The shop redelivers the same notification after a failure; it was not recorded, so it is processed now.
    expect((await receiveShopNotification(withLookup, unanswered.raw, unanswered.headers)).body).toEqual({
      ok: true,
      outcome: "completed",
    });
    expect((await getOrderStatus(database.handle.db, orderId))?.status).toBe("completed");
  });

  it("keeps the shop's own status (confirming, or one it never documented) on the order, which stays pending", async () => {
    const orderId = await newOrder("1009");
    let shopSays: InvoiceLookup = { outcome: "other", shopStatus: "confirming" };
    const withLookup: NotificationContext = { ...context, lookupInvoice: async () => shopSays };
    const updated = delivery({
      event: "NOTIFICATION.SHOP_INVOICE_UPDATED",
      data: { invoice_id: "1009" },
      shop_id: 151480,
    });
    expect((await receiveShopNotification(withLookup, updated.raw, updated.headers)).body).toEqual({
      ok: true,
      outcome: "ignored",
    });
    expect(await getOrderStatus(database.handle.db, orderId)).toEqual({
      id: orderId,
      status: "pending",
      shopStatus: "confirming",
    });
    shopSays = { outcome: "other", shopStatus: "on_hold_review" };
    const early = delivery(paid("1009"));
    expect((await receiveShopNotification(withLookup, early.raw, early.headers)).body).toEqual({
      ok: true,
      outcome: "unchanged",
    });
    expect(await getOrderStatus(database.handle.db, orderId)).toEqual({
      id: orderId,
      status: "pending",
      shopStatus: "on_hold_review",
    });
    shopSays = { outcome: "paid", shopStatus: "completed" };
    const settled = delivery(paid("1009"));
    expect((await receiveShopNotification(withLookup, settled.raw, settled.headers)).body).toEqual({
      ok: true,
      outcome: "completed",
    });
    expect(await getOrderStatus(database.handle.db, orderId)).toEqual({
      id: orderId,
      status: "completed",
      shopStatus: "completed",
    });
  });

  it("answers 400 for a signed body that is not a notification", async () => {
    const { raw, headers } = delivery({ hello: "world" });
    expect((await receiveShopNotification(context, raw, headers)).status).toBe(400);
    expect((await receiveShopNotification(context, undefined, headers)).status).toBe(400);
  });
});
