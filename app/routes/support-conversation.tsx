import { ConversationPage } from "~/features/support-conversation/conversation-page";
import { conversationPageAction, loadConversationPage } from "~/features/support-conversation/conversation-page.server";
import { conversationPageMeta } from "~/features/support-conversation/conversation-page-meta";
import { clientAddressContext } from "~/platform/request-context";
import type { Route } from "./+types/support-conversation";

// Private, like /orders: no handle.cache, so never stored anywhere (Cache-Control: no-store); rendered whole with only
// its own stylesheet rules (docs/decisions/013).
export const handle = { ownStylesheet: true };

export const headers: Route.HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const headers = new Headers(loaderHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  headers.set("Cache-Control", "no-store");
  return headers;
};

export const meta: Route.MetaFunction = ({ matches, location }) =>
  conversationPageMeta(matches[0].loaderData, location.pathname);

export function loader({ request }: Route.LoaderArgs) {
  return loadConversationPage(request);
}

export function action({ request, context }: Route.ActionArgs) {
  return conversationPageAction(request, context.get(clientAddressContext));
}

export default function SupportConversation({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <ConversationPage
      view={loaderData.view}
      proveAddress={"proveAddress" in loaderData && loaderData.proveAddress}
      notice={actionData?.notice ?? null}
      draft={actionData?.draft ?? null}
    />
  );
}
