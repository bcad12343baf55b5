import { useLingui } from "@lingui/react/macro";
import { ContentListPage } from "~/features/console/content/content-page";
import { loadContentList } from "~/features/console/content/content-page.server";
import type { Route } from "./+types/admin-content";

export function loader({ request }: Route.LoaderArgs) {
  return loadContentList(request);
}

export default function ConsoleContent({ loaderData }: Route.ComponentProps) {
  const { t } = useLingui();
  return (
    <>
      <title>{t`Content · Shop console`}</title>
      <meta name="robots" content="noindex" />
      <ContentListPage {...loaderData} />
    </>
  );
}
