import { useLingui } from "@lingui/react/macro";
import { SupportConversationPage } from "~/features/console/support/conversation-page";
import { conversationAction, loadConversationPage } from "~/features/console/support/conversation-page.server";
import type { Route } from "./+types/admin-support-conversation";

export function loader({ request, context, params }: Route.LoaderArgs) {
  return loadConversationPage(request, context, params.id);
}

export function action({ request, context, params }: Route.ActionArgs) {
  return conversationAction(request, context, params.id);
}

export default function ConsoleSupportConversation({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useLingui();
  const waiting = loaderData.waiting.all;
  return (
    <>
      <title>
        {waiting > 0
          ? t`(${waiting}) Conversation · Support inbox · Shop console`
          : t`Conversation · Support inbox · Shop console`}
      </title>
      <meta name="robots" content="noindex" />
      <SupportConversationPage {...loaderData} action={actionData} />
    </>
  );
}
