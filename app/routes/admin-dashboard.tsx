import { useLingui } from "@lingui/react/macro";
import { DashboardPage } from "~/features/console/dashboard/dashboard-page";
import { loadDashboard } from "~/features/console/dashboard/dashboard-page.server";
import type { Route } from "./+types/admin-dashboard";

export function loader({ request }: Route.LoaderArgs) {
  return loadDashboard(request);
}

export default function ConsoleDashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useLingui();
  return (
    <>
      <title>{t`Dashboard · Shop console`}</title>
      <meta name="robots" content="noindex" />
      <DashboardPage dashboard={loaderData.dashboard} remind={loaderData.remind} />
    </>
  );
}
