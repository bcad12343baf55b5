import { msg } from "@lingui/core/macro";
import { loadOrdersPage, ordersPageAction, ordersPageHeaders } from "~/features/buyer-orders/orders-page.server";
import { OrdersPage } from "~/features/buyer-orders/orders-page";
import { localeOfPath, localizedPath } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
import { pageMeta } from "~/features/layout/page-meta";
import type { Route } from "./+types/order";

// Private, like /orders: rendered whole with only its own stylesheet rules (docs/decisions/013).
export const handle = { ownStylesheet: true };

export const headers: Route.HeadersFunction = ({ actionHeaders, loaderHeaders }) =>
  ordersPageHeaders(actionHeaders, loaderHeaders);

export const meta: Route.MetaFunction = ({ matches, location }) => {
  const locale = localeOfPath(location.pathname);
  const i18n = translatorFor(locale);
  return pageMeta(matches[0].loaderData, {
    title: i18n._(msg`Your orders`),
    description: i18n._(msg`Sign in with a code sent to your email address to see your orders and their keys.`),
    path: localizedPath("/orders", locale),
    noindex: true,
  });
};

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
