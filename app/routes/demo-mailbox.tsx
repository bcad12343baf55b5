import { msg } from "@lingui/core/macro";
import { loadDemoMailbox } from "~/features/buyer-orders/demo-mailbox.server";
import { DemoMailbox } from "~/features/buyer-orders/demo-mailbox";
import { localeOfPath, localizedPath } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
import { pageMeta } from "~/features/layout/page-meta";
import type { Route } from "./+types/demo-mailbox";

// Holds sign-in codes: never stored anywhere.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export const meta: Route.MetaFunction = ({ matches, location }) => {
  const locale = localeOfPath(location.pathname);
  const i18n = translatorFor(locale);
  return pageMeta(matches[0].loaderData, {
    title: i18n._(msg`Demo mailbox`),
    description: i18n._(msg`The demo shop's mail, kept here because no mail server is configured.`),
    path: localizedPath("/demo/mailbox", locale),
    noindex: true,
  });
};

export async function loader() {
  return { mail: await loadDemoMailbox() };
}

export default function DemoMailboxRoute({ loaderData }: Route.ComponentProps) {
  return <DemoMailbox mail={loaderData.mail} />;
}
