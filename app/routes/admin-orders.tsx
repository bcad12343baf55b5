import { useLingui } from "@lingui/react/macro";
import { loadOrdersPage } from "~/features/console/orders-page.server";
import { OrdersPage } from "~/features/console/orders-page";
import type { Route } from "./+types/admin-orders";

export function loader({ request, context }: Route.LoaderArgs) {
  return loadOrdersPage(request, context);
}

export default function ConsoleOrders({ loaderData }: Route.ComponentProps) {
  const { t } = useLingui();
  return (
    <>
      <title>{t`Orders · Shop console`}</title>
      <meta name="robots" content="noindex" />
      <OrdersPage {...loaderData} />
    </>
  );
}
