import { formatUsd, priceLine } from "~/features/catalog/pricing";
import { getProduct } from "~/features/catalog/catalogue.server";
import { type AnyLocale, DEFAULT_LOCALE } from "~/features/i18n/locales";
import { z } from "zod";
import { findOrderByInvoice, recordDemoDelivery } from "~/features/orders/orders.server";
import { receiveShopNotification, signShopNotification } from "~/features/orders/shop-notifications.server";
import { getDb } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { getCheckoutProvider, notificationContext, shopWebhookSecret } from "./checkout.server";
import { generateDemoKey } from "./providers/demo.server";

/** The address the demo shop delivers the key to: one address, trimmed and lower-cased. */
export const demoBuyerEmailSchema = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email())
  .transform((email) => email.toLowerCase());

export interface DemoCheckoutView {
  invoiceId: string;
  productId: number;
  /** In the page's language; null when the catalogue no longer has the product (or its duration). */
  productName: string | null;
  durationLabel: string | null;
  variantId: number;
  quantity: number;
  /** What is charged: the list price, less the coupon's discount when one applied. */
  total: string;
  /** The coupon applied, and the list price (before every discount) it was taken off. */
  coupon?: { code: string; listTotal: string };
  /** The volume discount taken off the list price: its tier and amount (`-$22.50`), and the list price before it. */
  volumeDiscount?: { quantity: number; percent: number; amount: string; listTotal: string };
  status: "pending" | "completed" | "failed" | "refunded";
  orderId: string;
}

/** The demo shop's invoice page data in `locale`; undefined when the demo shop is off or the invoice is not ours. */
export async function loadDemoCheckout(invoiceId: string, locale: AnyLocale): Promise<DemoCheckoutView | undefined> {
  if (getCheckoutProvider().name !== "demo" || !/^demo-[0-9a-f-]{36}$/.test(invoiceId)) return undefined;
  const order = await findOrderByInvoice(getDb().db, "demo", invoiceId);
  if (!order) return undefined;
  const product = getProduct(order.product_id, locale);
  const duration = product?.durations.find((d) => d.variantId === order.variant_id);
  // Priced again by the one rule the page and the checkout used: the list price, and the tier it reached.
  const line =
    product && duration
      ? priceLine(product, duration, order.quantity, { coupon: order.coupon ?? undefined })
      : undefined;
  const listCents = line?.listCents;
  return {
    invoiceId,
    productId: order.product_id,
    productName: product?.name ?? null,
    durationLabel: duration?.label ?? null,
    variantId: order.variant_id,
    quantity: order.quantity,
    total: formatUsd(order.amount_cents),
    ...(order.coupon && listCents !== undefined
      ? { coupon: { code: order.coupon, listTotal: formatUsd(listCents) } }
      : {}),
    ...(line?.discount
      ? {
          volumeDiscount: {
            quantity: line.discount.tier.quantity,
            percent: line.discount.tier.percent,
            amount: `-${formatUsd(line.discount.cents)}`,
            listTotal: formatUsd(line.listCents),
          },
        }
      : {}),
    status: order.status,
    orderId: order.id,
  };
}

/**
 * Pays a demo invoice the way a real shop would: a signed "invoice processed" notification, handled by the same
 * receiveShopNotification() that POST /api/shop/notifications uses. Returns the invoice page again (now paid): like
 * a real shop's, it does not send the buyer anywhere; the product page notices the payment by watching the order.
 * The buyer's address (from the page's form) is recorded with the order and a generated demo key delivered to it;
 * a malformed address pays nothing and answers `invalidEmail`.
 * The path has no locale prefix: the caller puts it in the page's language.
 */
export async function payDemoCheckout(
  invoiceId: string,
  email: unknown,
): Promise<{ next: string } | { invalidEmail: true } | undefined> {
  const view = await loadDemoCheckout(invoiceId, DEFAULT_LOCALE);
  if (!view) return undefined;
  const address = demoBuyerEmailSchema.safeParse(email);
  if (!address.success) return { invalidEmail: true };
  // Recorded before the payment, so the paid order already carries its buyer and key when the watchers see it.
  await recordDemoDelivery(getDb().db, { invoiceId, email: address.data, key: generateDemoKey() });
  const env = getEnv();
  const body = Buffer.from(
    JSON.stringify({
      event: "NOTIFICATION.SHOP_INVOICE_PROCESSED",
      data: { invoice_id: invoiceId },
      shop_id: env.SHOP_ID,
    }),
  );
  const reply = await receiveShopNotification(notificationContext(), body, {
    signature: signShopNotification(body, shopWebhookSecret(env)),
    timestamp: String(Math.floor(Date.now() / 1000)),
    idempotencyKey: `demo-pay-${invoiceId}`,
  });
  if (reply.status !== 200) throw new Error(`demo payment notification refused (${reply.status})`);
  return { next: `/demo-checkout/${encodeURIComponent(invoiceId)}` };
}
