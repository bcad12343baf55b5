import { useLingui } from "@lingui/react/macro";
import { loadSetupPage } from "~/features/console/sign-in/sign-in-page.server";
import { SetupPage } from "~/features/console/sign-in/sign-in-page";
import { pageDatabaseWork } from "~/platform/db.server";
import type { Route } from "./+types/admin-setup";

// Opened with a one-time `?token=`, which is spent and replaced by a short setup session and a URL without it.
export function loader({ request, context }: Route.LoaderArgs) {
  return pageDatabaseWork(() => loadSetupPage(request, context));
}

export default function ConsoleSetup({ loaderData }: Route.ComponentProps) {
  const { t } = useLingui();
  return (
    <>
      <title>{t`Create a passkey · Shop console`}</title>
      <meta name="robots" content="noindex" />
      <meta name="referrer" content="no-referrer" />
      <SetupPage {...loaderData} />
    </>
  );
}
