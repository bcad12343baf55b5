import type { Kysely } from "kysely";
import { getSharedCaptcha } from "~/features/captcha/captcha.server";
import type { Product } from "~/features/catalog/catalog.content";
import { getContent } from "~/features/content/content.server";
import { createPendingOrder } from "~/features/orders/orders.server";
import type { NotificationContext } from "~/features/orders/shop-notifications.server";
import { getDb } from "~/platform/db.server";
import type { Env } from "~/platform/env.server";
import { getEnv } from "~/platform/env.server";
import { loadOrCreateLocalSecret } from "~/platform/local-secret.server";
import { logger } from "~/platform/logger.server";
import type { Database } from "../../../db/schema";
import { type CheckoutRequest, resolveCart } from "./checkout";
import { CHECKOUT_MESSAGES, onlyLeftMessage } from "./checkout-messages";
import type { BuyerContext, CheckoutProvider } from "./checkout-provider";
import { createDemoProvider } from "./providers/demo.server";
import { createSellAuthProvider } from "./providers/sellauth.server";

export function createCheckoutProvider(env: Env, captcha = getSharedCaptcha()): CheckoutProvider {
  if (env.CHECKOUT_PROVIDER === "sellauth") {
    return createSellAuthProvider({
      apiBase: env.SHOP_API_BASE,
      shopId: env.SHOP_ID,
      apiKey: env.SHOP_API_KEY,
      captcha,
      publicUrl: env.PUBLIC_URL,
    });
  }
  return createDemoProvider(captcha, () => getContent().coupons);
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

export function notificationContext(
  db: Kysely<Database> = getDb().db,
  env: Env = getEnv(),
  active = getCheckoutProvider(),
): NotificationContext {
  return {
    db,
    secret: shopWebhookSecret(env),
    provider: active.name,
    shopId: env.SHOP_ID,
    lookupInvoice: active.lookupInvoice,
  };
}

export type StartCheckoutResult = {
  status: number;
  body: { url: string; orderId: string; frameRefused?: true } | { error: string };
};

export interface CheckoutDeps {
  db: Kysely<Database>;
  products: readonly Product[];
  provider: CheckoutProvider;
  /** The shop's stock of a variant right now, when the catalogue comes from it (catalogue.server.ts `liveStock`). */
  liveStock?: (productId: number, variantId: number) => Promise<number | null | "gone" | undefined>;
}

/**
 * Validates the cart against the catalogue, asks the shop whether the keys are still there, prices it on the server,
 * asks the provider, records a pending order. A sold-out licence is refused (409) before any invoice exists.
 */
export async function startCheckout(
  deps: CheckoutDeps,
  request: CheckoutRequest,
  buyer: BuyerContext = {},
): Promise<StartCheckoutResult> {
  const resolved = resolveCart(deps.products, request);
  if ("error" in resolved) return { status: resolved.soldOut ? 409 : 400, body: { error: resolved.error } };
  const left = await deps.liveStock?.(request.productId, request.variantId);
  if (left === "gone") return { status: 409, body: { error: CHECKOUT_MESSAGES.noLongerSold } };
  if (left === 0) return { status: 409, body: { error: CHECKOUT_MESSAGES.soldOut } };
  if (typeof left === "number" && request.quantity > left)
    return { status: 409, body: { error: onlyLeftMessage(left) } };
  const result = await deps.provider.createCheckout(resolved.cart, request.altcha, {
    ...buyer,
    locale: request.locale,
  });
  // The buyer's input refused (captcha, cart) is a 422; the shop failing is a 502.
  if ("error" in result) return { status: result.rejected ? 422 : 502, body: { error: result.error } };
  // The order records what the shop will charge when it says so (the demo shop after a coupon).
  const cart = result.amountCents === undefined ? resolved.cart : { ...resolved.cart, amountCents: result.amountCents };
  const orderId = await createPendingOrder(deps.db, {
    provider: deps.provider.name,
    invoiceId: result.invoiceId,
    cart,
  });
  return {
    status: 200,
    body: result.frameRefused ? { url: result.url, orderId, frameRefused: true } : { url: result.url, orderId },
  };
}

/** What the product page's loader passes to the Purchase Now button (`checkout` key; see purchase-button.tsx). */
export function checkoutPageSettings(env: Env = getEnv()) {
  return { modal: env.CHECKOUT_MODAL === "on" };
}
