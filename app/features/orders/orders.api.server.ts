import express from "express";
import { getDb } from "~/platform/db.server";
import { jsonBody } from "~/platform/json-body.server";
import { type RateLimitPolicy, rateLimit } from "~/platform/rate-limit.server";
import { orderIdSchema } from "./orders";
import { getOrderStatus } from "./orders.server";
import { type NotificationContext, receiveShopNotification } from "./shop-notifications.server";

/** Per client address: the success page polls every 2 s (every 10 s after a minute), far below this. */
const ORDER_STATUS_LIMIT: RateLimitPolicy = {
  name: "orderStatus",
  points: 60,
  durationSeconds: 60,
  error: "Too many order status requests. Please slow down.",
};

/**
 * POST /api/shop/notifications (signed by the shop), GET /api/orders/:id (status only). `notificationContext` comes
 * from the checkout (the active provider, its webhook secret and invoice lookup), handed in by the API router.
 */
export function createOrdersApi({ notificationContext }: { notificationContext: () => NotificationContext }) {
  const router = express.Router();
  router.get("/orders/{*rest}", rateLimit(ORDER_STATUS_LIMIT));
  // Shop notifications have no limit: they are signature-checked and the shop retries failed deliveries.
  router.post("/shop/notifications", jsonBody);

  router.post("/shop/notifications", async (req, res) => {
    const reply = await receiveShopNotification(notificationContext(), req.rawBody, {
      signature: req.get("X-Signature"),
      timestamp: req.get("X-Timestamp"),
      idempotencyKey: req.get("Idempotency-Key"),
    });
    if (reply.status !== 200)
      req.log?.warn(
        { status: reply.status, error: "error" in reply.body ? reply.body.error : undefined },
        "shop notification refused",
      );
    res.status(reply.status).json(reply.body);
  });

  router.get("/orders/:id", async (req, res) => {
    const id = orderIdSchema.safeParse(req.params.id);
    if (!id.success) {
      res.status(400).json({ error: "Invalid order id" });
      return;
    }
    const order = await getOrderStatus(getDb().db, id.data);
    if (!order) {
      res.status(404).json({ error: "Order not found" });
      return;
    }
    res.json(order);
  });

  return router;
}
