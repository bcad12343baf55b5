import { loadOrdersPage, ordersPageAction, ordersPageHeaders } from "~/features/buyer-orders/orders-page.server";
import { OrdersPage } from "~/features/buyer-orders/orders-page";
import { ordersPageMeta } from "~/features/buyer-orders/orders-page-meta";
import type { Route } from "./+types/order";

// Private, like /orders: rendered whole with only its own stylesheet rules (docs/decisions/013).
export const handle = { ownStylesheet: true };

export const headers: Route.HeadersFunction = ({ actionHeaders, loaderHeaders }) =>
  ordersPageHeaders(actionHeaders, loaderHeaders);

export const meta: Route.MetaFunction = ({ matches, location }) =>
  ordersPageMeta(matches[0].loaderData, location.pathname);

/** One order of the signed-in address; any other id (or no session) answers 404. */
export function loader({ request, context, params }: Route.LoaderArgs) {
  return loadOrdersPage(request, context, { orderId: params.id });
}

export function action({ request, context }: Route.ActionArgs) {
  return ordersPageAction(request, context);
}

export default function Order({ loaderData, actionData }: Route.ComponentProps) {
  return <OrdersPage view={loaderData.view} notice={actionData?.notice ?? null} />;
}
