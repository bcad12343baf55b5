import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { PageHeader } from "~/components/ui/page-header";
import { getContent } from "~/features/content/content.server";
import { localeOfRequest } from "~/features/i18n/locale.server";
import { localeOfPath, localizedPath } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
import { pageMeta } from "~/features/layout/page-meta";
import { StatusPage } from "~/features/status/status-page";
import { FEED_PATH } from "~/features/status/status-feed";
import { loadStatusSnapshot } from "~/features/status/status.server";
import type { RouteCacheHandle } from "~/lib/route-cache";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import type { Route } from "./+types/status";

export const handle = { cache: "live" } satisfies RouteCacheHandle;

export async function loader({ request }: Route.LoaderArgs) {
  const { stats } = getContent(localeOfRequest(request)).site;
  const snapshot = await pageDatabaseWork(() => loadStatusSnapshot(getDb().db, stats));
  return { snapshot, loadedAt: new Date().toISOString() };
}

export const meta: Route.MetaFunction = ({ matches, location }) => {
  const locale = localeOfPath(location.pathname);
  const i18n = translatorFor(locale);
  return [
    ...pageMeta(matches[0].loaderData, {
      title: i18n._(msg({ message: "System Status", comment: "The status page's title" })),
      description: i18n._(msg`Live status and uptime of every Kestrel Software product and our licence servers.`),
      path: localizedPath("/status", locale),
    }),
    // The feed is one, in English, at its unprefixed address.
    {
      tagName: "link",
      rel: "alternate",
      type: "application/atom+xml",
      title: i18n._(msg`Incidents (Atom)`),
      href: FEED_PATH,
    },
  ];
};

export default function StatusRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useLingui();
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:py-16">
      <PageHeader
        title={t({ message: "System Status", comment: "The status page's title" })}
        description={t`Current state of every product and our licence servers.`}
      />
      <StatusPage initial={loaderData.snapshot} loadedAt={loaderData.loadedAt} />
    </div>
  );
}
