import { useLingui } from "@lingui/react/macro";
import { StatusConsolePage } from "~/features/console/status/status-page";
import { loadStatusConsole, statusConsoleAction } from "~/features/console/status/status-page.server";
import { pageDatabaseWork } from "~/platform/db.server";
import type { Route } from "./+types/admin-status";

export function loader({ request }: Route.LoaderArgs) {
  return loadStatusConsole(request);
}

export function action({ request, context }: Route.ActionArgs) {
  return pageDatabaseWork(() => statusConsoleAction(request, context));
}

export default function ConsoleStatus({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useLingui();
  return (
    <>
      <title>{t`Status and incidents · Shop console`}</title>
      <meta name="robots" content="noindex" />
      <StatusConsolePage {...loaderData} notice={actionData?.notice ?? null} draft={actionData?.draft} />
    </>
  );
}
