import { useLingui } from "@lingui/react/macro";
import { AccountPage } from "~/features/console/account/account-page";
import { accountAction, loadAccount } from "~/features/console/account/account-page.server";
import { pageDatabaseWork } from "~/platform/db.server";
import type { Route } from "./+types/admin-account";

export function loader({ request }: Route.LoaderArgs) {
  return loadAccount(request);
}

export function action({ request, context }: Route.ActionArgs) {
  return pageDatabaseWork(() => accountAction(request, context));
}

export default function ConsoleAccount({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useLingui();
  return (
    <>
      <title>{t`Your account · Shop console`}</title>
      <meta name="robots" content="noindex" />
      <AccountPage {...loaderData} notice={actionData?.notice ?? null} />
    </>
  );
}
