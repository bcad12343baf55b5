import express from "express";
import { notificationContext } from "~/features/checkout/checkout.server";
import { getDb } from "~/server/db.server";
import { orderIdSchema } from "./orders";
import { getOrderStatus } from "./orders.server";
import { receiveShopNotification } from "./shop-notifications.server";

/** POST /api/shop/notifications (signed by the shop), GET /api/orders/:id (status only). */
export function createOrdersApi() {
  const router = express.Router();

  router.post("/shop/notifications", async (req, res) => {
    const reply = await receiveShopNotification(notificationContext(), req.rawBody, {
      signature: req.get("X-Signature"),
      timestamp: req.get("X-Timestamp"),
      idempotencyKey: req.get("Idempotency-Key"),
    });
    if (reply.status !== 200) req.log?.warn({ status: reply.status, error: "error" in reply.body ? reply.body.error : undefined }, "shop notification refused");
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
