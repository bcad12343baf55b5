import { useLingui } from "@lingui/react/macro";
import { ReleasesConsolePage } from "~/features/console/releases/releases-page";
import { loadReleasesConsole, releasesConsoleAction } from "~/features/console/releases/releases-page.server";
import type { Route } from "./+types/admin-releases";

export function loader({ request }: Route.LoaderArgs) {
  return loadReleasesConsole(request);
}

export function action({ request, context }: Route.ActionArgs) {
  return releasesConsoleAction(request, context);
}

export default function ConsoleReleases({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useLingui();
  return (
    <>
      <title>{t`Releases · Shop console`}</title>
      <meta name="robots" content="noindex" />
      <ReleasesConsolePage {...loaderData} notice={actionData?.notice ?? null} />
    </>
  );
}
