import { formatUsd } from "~/features/catalog/pricing";
import { getProduct } from "~/features/content/content.server";
import { findOrderByInvoice } from "~/features/orders/orders.server";
import { receiveShopNotification, signShopNotification } from "~/features/orders/shop-notifications.server";
import { getDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { getCheckoutProvider, notificationContext, shopWebhookSecret } from "./checkout.server";

export interface DemoCheckoutView {
  invoiceId: string;
  productId: number;
  productName: string;
  durationLabel: string;
  quantity: number;
  total: string;
  status: "pending" | "completed" | "failed" | "refunded";
  orderId: string;
}

/** The demo shop's invoice page data; undefined when the demo shop is off or the invoice is not ours. */
export async function loadDemoCheckout(invoiceId: string): Promise<DemoCheckoutView | undefined> {
  if (getCheckoutProvider().name !== "demo" || !/^demo-[0-9a-f-]{36}$/.test(invoiceId)) return undefined;
  const order = await findOrderByInvoice(getDb().db, "demo", invoiceId);
  if (!order) return undefined;
  const product = getProduct(order.product_id);
  const duration = product?.durations.find((d) => d.variantId === order.variant_id);
  return {
    invoiceId,
    productId: order.product_id,
    productName: product?.name ?? `Product ${order.product_id}`,
    durationLabel: duration?.label ?? `Variant ${order.variant_id}`,
    quantity: order.quantity,
    total: formatUsd(order.amount_cents),
    status: order.status,
    orderId: order.id,
  };
}

/**
 * Pays a demo invoice the way a real shop would: a signed "invoice processed" notification, handled by the same
 * receiveShopNotification() that POST /api/shop/notifications uses. Returns where to send the buyer.
 */
export async function payDemoCheckout(invoiceId: string): Promise<string | undefined> {
  const view = await loadDemoCheckout(invoiceId);
  if (!view) return undefined;
  const env = getEnv();
  const body = Buffer.from(JSON.stringify({ event: "NOTIFICATION.SHOP_INVOICE_PROCESSED", data: { invoice_id: invoiceId }, shop_id: env.SHOP_ID }));
  const reply = await receiveShopNotification(notificationContext(), body, {
    signature: signShopNotification(body, shopWebhookSecret(env)),
    timestamp: String(Math.floor(Date.now() / 1000)),
    idempotencyKey: `demo-pay-${invoiceId}`,
  });
  if (reply.status !== 200) throw new Error(`demo payment notification refused (${reply.status})`);
  return `/purchase/success?order_id=${encodeURIComponent(view.orderId)}&product_id=${view.productId}`;
}
