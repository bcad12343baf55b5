import { useLingui } from "@lingui/react/macro";
import { deliveriesAction, loadDeliveriesPage } from "~/features/console/deliveries/deliveries-page.server";
import { DeliveriesPage } from "~/features/console/deliveries/deliveries-page";
import { pageDatabaseWork } from "~/platform/db.server";
import type { Route } from "./+types/admin-deliveries";

export function loader({ request }: Route.LoaderArgs) {
  return loadDeliveriesPage(request);
}

export function action({ request, context }: Route.ActionArgs) {
  return pageDatabaseWork(() => deliveriesAction(request, context));
}

export default function ConsoleDeliveries({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useLingui();
  return (
    <>
      <title>{t`Deliveries · Shop console`}</title>
      <meta name="robots" content="noindex" />
      <DeliveriesPage {...loaderData} notice={actionData?.notice ?? null} />
    </>
  );
}
