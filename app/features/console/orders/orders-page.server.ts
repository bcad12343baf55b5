// The console's Orders page on the server: who may look, the look-up's audit entry, and the search itself. The
// search is a POST (its query in the body, never in a URL); the inbox calls searchOrders (orders.server.ts) itself.
import { data, type RouterContextProvider } from "react-router";
import { getDb } from "~/platform/db.server";
import { clientAddressContext } from "~/platform/request-context";
import { lookupTarget, recordAudit } from "~/features/audit/audit-log.server";
import { auditInfo, NO_STORE, readConsoleForm, requireStaff } from "~/features/staff/door.server";
import { catalogueNames } from "./catalogue-names.server";
import { ORDER_QUERY_MAX, searchOrders } from "./orders.server";

/** The empty search form. A query never comes in the URL (browser history, logs, Referer): only in a POST's body. */
export async function loadOrdersPage(request: Request) {
  await requireStaff(request, "orders");
  return data({ query: "", page: 1, result: null }, { headers: NO_STORE });
}

/** The query and the page fit this with room to spare. */
const MAX_ORDERS_FORM_BYTES = 4 * 1024;
export const MAX_ORDERS_PAGE = 10_000;

/** The search form's POST (`q`, and `page` when paging): one audit entry per look-up (who looked up what), then the orders. */
export async function ordersSearchAction(request: Request, context: Readonly<RouterContextProvider>) {
  const session = await requireStaff(request, "orders");
  const body = await readConsoleForm(request, MAX_ORDERS_FORM_BYTES);
  const field = (name: string) => {
    const value = body.get(name);
    return typeof value === "string" ? value : "";
  };
  const query = field("q").trim().slice(0, ORDER_QUERY_MAX);
  const page = Math.min(Math.max(1, Number.parseInt(field("page") || "1", 10) || 1), MAX_ORDERS_PAGE);
  if (query.length === 0) return data({ query, page: 1, result: null }, { status: 400, headers: NO_STORE });
  const { db } = getDb();
  await recordAudit(db, {
    actor: session.staff.email,
    action: "orders-looked-up",
    // Never the text itself: a query may be a delivered key.
    target: lookupTarget(query),
    detail: page > 1 ? { page } : null,
    sessionBeganWith: session.beganWith,
    ...auditInfo(request, context.get(clientAddressContext)),
  });
  const result = await searchOrders(db, query, page, catalogueNames);
  return data({ query, page, result }, { headers: NO_STORE });
}
