import { getDb } from "~/platform/db.server";
import { type Env, getEnv } from "~/platform/env.server";
import type { BuyerOrderSource } from "./buyer-orders";
import { createDemoBuyerOrders } from "./sources/demo.server";
import { createSellAuthBuyerOrders } from "./sources/sellauth.server";

export { BuyerOrdersUnavailableError } from "./sources/sellauth.server";

/** Why a SellAuth shop without an API key shows no orders (for the owner; the buyer's page words it itself). */
export const NO_API_KEY_REASON =
  "The shop's invoices are read with its API: set SHOP_API_KEY so buyers can see their orders.";

/** Where orders come from for this configuration (CHECKOUT_PROVIDER): the demo checkout's records or SellAuth's invoices. */
export function createBuyerOrderSource(env: Env): BuyerOrderSource {
  if (env.CHECKOUT_PROVIDER === "demo") return createDemoBuyerOrders(() => getDb().db);
  if (!env.SHOP_API_KEY)
    return { ordersAvailable: false, unavailableReason: NO_API_KEY_REASON, ordersOf: async () => [] };
  return createSellAuthBuyerOrders({ apiBase: env.SHOP_API_BASE, shopId: env.SHOP_ID, apiKey: env.SHOP_API_KEY });
}

let source: BuyerOrderSource | undefined;

/** The process's one source (its cache is shared by every request, each address in its own entry). */
export function buyerOrderSource(): BuyerOrderSource {
  source ??= createBuyerOrderSource(getEnv());
  return source;
}
