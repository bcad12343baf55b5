import type { Kysely } from "kysely";
import { getSharedCaptcha } from "~/features/captcha/captcha.server";
import type { Product } from "~/features/content/content";
import { createPendingOrder } from "~/features/orders/orders.server";
import type { NotificationContext } from "~/features/orders/shop-notifications.server";
import { getDb } from "~/server/db.server";
import type { Env } from "~/server/env.server";
import { getEnv } from "~/server/env.server";
import { loadOrCreateLocalSecret } from "~/server/local-secret.server";
import { logger } from "~/server/logger.server";
import type { Database } from "../../../db/schema";
import { type CheckoutRequest, resolveCart } from "./checkout";
import type { CheckoutProvider } from "./checkout-provider";
import { createDemoProvider } from "./providers/demo.server";
import { createSellAuthProvider } from "./providers/sellauth.server";

export function createCheckoutProvider(env: Env, captcha = getSharedCaptcha()): CheckoutProvider {
  if (env.CHECKOUT_PROVIDER === "sellauth") {
    return createSellAuthProvider({ apiBase: env.SHOP_API_BASE, shopId: env.SHOP_ID, apiKey: env.SHOP_API_KEY, captcha });
  }
  return createDemoProvider(captcha);
}

let provider: CheckoutProvider | undefined;

/** The provider chosen by CHECKOUT_PROVIDER (demo by default). */
export function getCheckoutProvider(): CheckoutProvider {
  provider ??= createCheckoutProvider(getEnv());
  return provider;
}

/** The secret shop notifications are signed with; the demo shop (or an unconfigured one) uses a generated one. */
export function shopWebhookSecret(env: Env = getEnv()): string {
  if (env.SHOP_WEBHOOK_SECRET) return env.SHOP_WEBHOOK_SECRET;
  if (env.CHECKOUT_PROVIDER === "sellauth" && !warnedAboutSecret) {
    warnedAboutSecret = true;
    logger.warn("SHOP_WEBHOOK_SECRET is not set: the shop's notifications cannot be verified, so orders stay pending");
  }
  return loadOrCreateLocalSecret("shop-webhook-secret", env.DATA_DIR);
}

let warnedAboutSecret = false;

export function notificationContext(db: Kysely<Database> = getDb().db, env: Env = getEnv(), active = getCheckoutProvider()): NotificationContext {
  return { db, secret: shopWebhookSecret(env), provider: active.name, shopId: env.SHOP_ID, lookupInvoice: active.lookupInvoice };
}

export type StartCheckoutResult = { status: number; body: { url: string; orderId: string } | { error: string } };

/** Validates the cart against the catalogue, prices it on the server, asks the provider, records a pending order. */
export async function startCheckout(
  deps: { db: Kysely<Database>; products: readonly Product[]; provider: CheckoutProvider },
  request: CheckoutRequest,
): Promise<StartCheckoutResult> {
  const resolved = resolveCart(deps.products, request);
  if ("error" in resolved) return { status: 400, body: { error: resolved.error } };
  const result = await deps.provider.createCheckout(resolved.cart, request.altcha);
  // The buyer's input refused (captcha, cart) is a 422; the shop failing is a 502.
  if ("error" in result) return { status: result.rejected ? 422 : 502, body: { error: result.error } };
  const orderId = await createPendingOrder(deps.db, { provider: deps.provider.name, invoiceId: result.invoiceId, cart: resolved.cart });
  return { status: 200, body: { url: result.url, orderId } };
}

/** What the product page's loader passes to the Purchase Now button (`checkout` key; see purchase-button.tsx). */
export function checkoutPageSettings(env: Env = getEnv()) {
  return { modal: env.CHECKOUT_MODAL === "on" };
}
