// The console's Orders page on the server: who may look, the look-up's audit entry, and the search itself.
import { data, type RouterContextProvider } from "react-router";
import { getProduct } from "~/features/catalog/catalogue.server";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import { clientAddressContext } from "~/platform/request-context";
import { recordAudit } from "./audit-log.server";
import { auditInfo, NO_STORE, requireStaff } from "./console-access.server";
import { ORDER_QUERY_MAX, type ProductNames, searchOrders } from "./order-search.server";

export const catalogueNames: ProductNames = (productId, variantId) => {
  const product = getProduct(productId);
  return {
    productName: product?.name ?? `#${productId}`,
    durationLabel: product?.durations.find((d) => d.variantId === variantId)?.label ?? null,
  };
};

/** `?q=` looks up orders (an audit entry: who looked up what); without it, the empty search form. */
export async function loadOrdersPage(request: Request, context: Readonly<RouterContextProvider>) {
  const session = await requireStaff(request, "orders");
  const url = new URL(request.url);
  const query = (url.searchParams.get("q") ?? "").trim().slice(0, ORDER_QUERY_MAX);
  const page = Math.min(Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1), 10_000);
  if (query.length === 0) return data({ query, page, result: null }, { headers: NO_STORE });
  const { db } = getDb();
  const result = await pageDatabaseWork(async () => {
    await recordAudit(db, {
      actor: session.staff.email,
      action: "orders-looked-up",
      target: query,
      detail: page > 1 ? { page } : null,
      sessionBeganWith: session.beganWith,
      ...auditInfo(request, context.get(clientAddressContext)),
    });
    return searchOrders(db, query, page, catalogueNames);
  });
  return data({ query, page, result }, { headers: NO_STORE });
}
