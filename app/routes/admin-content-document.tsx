import { useLingui } from "@lingui/react/macro";
import { ContentDocumentPage } from "~/features/console/content/content-page";
import { contentDocumentAction, loadContentDocument } from "~/features/console/content/content-page.server";
import { pageDatabaseWork } from "~/platform/db.server";
import type { Route } from "./+types/admin-content-document";

export function loader({ request, params }: Route.LoaderArgs) {
  return loadContentDocument(request, params);
}

export function action({ request, context, params }: Route.ActionArgs) {
  return pageDatabaseWork(() => contentDocumentAction(request, context, params));
}

export default function ConsoleContentDocument({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useLingui();
  return (
    <>
      <title>{t`Content · Shop console`}</title>
      <meta name="robots" content="noindex" />
      <ContentDocumentPage {...loaderData} answer={actionData ?? null} />
    </>
  );
}
