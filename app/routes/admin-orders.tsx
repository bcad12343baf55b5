import { useLingui } from "@lingui/react/macro";
import { loadOrdersPage, ordersSearchAction } from "~/features/console/orders/orders-page.server";
import { OrdersPage } from "~/features/console/orders/orders-page";
import { pageDatabaseWork } from "~/platform/db.server";
import type { Route } from "./+types/admin-orders";

export function loader({ request }: Route.LoaderArgs) {
  return loadOrdersPage(request);
}

export function action({ request, context }: Route.ActionArgs) {
  return pageDatabaseWork(() => ordersSearchAction(request, context));
}

export default function ConsoleOrders({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useLingui();
  return (
    <>
      <title>{t`Orders · Shop console`}</title>
      <meta name="robots" content="noindex" />
      <OrdersPage {...(actionData ?? loaderData)} />
    </>
  );
}
