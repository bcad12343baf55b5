import { useLingui } from "@lingui/react/macro";
import { SupportInboxPage } from "~/features/console/support/support-page";
import { loadInboxPage } from "~/features/console/support/support-page.server";
import type { Route } from "./+types/admin-support";

export function loader({ request }: Route.LoaderArgs) {
  return loadInboxPage(request);
}

export default function ConsoleSupportInbox({ loaderData }: Route.ComponentProps) {
  const { t } = useLingui();
  const waiting = loaderData.waiting.all;
  return (
    <>
      <title>{waiting > 0 ? t`(${waiting}) Support inbox · Shop console` : t`Support inbox · Shop console`}</title>
      <meta name="robots" content="noindex" />
      <SupportInboxPage {...loaderData} />
    </>
  );
}
