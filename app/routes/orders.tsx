import { loadOrdersPage, ordersPageAction, ordersPageHeaders } from "~/features/buyer-orders/orders-page.server";
import { OrdersPage } from "~/features/buyer-orders/orders-page";
import { ordersPageMeta } from "~/features/buyer-orders/orders-page-meta";
import type { Route } from "./+types/orders";

// Private: no handle.cache, so never stored anywhere (Cache-Control: no-store); small enough to render whole, so it
// inlines only the stylesheet rules it uses and fits a new connection's first round trip (docs/decisions/013).
export const handle = { ownStylesheet: true };
export const headers: Route.HeadersFunction = ({ actionHeaders, loaderHeaders }) =>
  ordersPageHeaders(actionHeaders, loaderHeaders);

export const meta: Route.MetaFunction = ({ matches, location }) =>
  ordersPageMeta(matches[0].loaderData, location.pathname);

export function loader({ request, context }: Route.LoaderArgs) {
  return loadOrdersPage(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  return ordersPageAction(request, context);
}

export default function Orders({ loaderData, actionData }: Route.ComponentProps) {
  return <OrdersPage view={loaderData.view} notice={actionData?.notice ?? null} />;
}
