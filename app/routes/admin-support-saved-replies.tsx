import { useLingui } from "@lingui/react/macro";
import { SavedRepliesPage } from "~/features/console/saved-replies/saved-replies-page";
import { loadSavedRepliesPage, savedRepliesAction } from "~/features/console/saved-replies/saved-replies-page.server";
import { pageDatabaseWork } from "~/platform/db.server";
import type { Route } from "./+types/admin-support-saved-replies";

export function loader({ request }: Route.LoaderArgs) {
  return loadSavedRepliesPage(request);
}

export function action({ request, context }: Route.ActionArgs) {
  return pageDatabaseWork(() => savedRepliesAction(request, context));
}

export default function ConsoleSavedReplies({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useLingui();
  return (
    <>
      <title>{t`Saved replies · Shop console`}</title>
      <meta name="robots" content="noindex" />
      <SavedRepliesPage {...loaderData} answer={actionData ?? null} />
    </>
  );
}
