import { PageHeader } from "~/components/ui/page-header";
import { getContent } from "~/features/content/content.server";
import { pageMeta } from "~/features/layout/page-meta";
import { StatusPage } from "~/features/status/status-page";
import { FEED_PATH } from "~/features/status/status-feed";
import { loadStatusSnapshot } from "~/features/status/status.server";
import type { RouteCacheHandle } from "~/lib/route-cache";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import type { Route } from "./+types/status";

export const handle = { cache: "live" } satisfies RouteCacheHandle;

export async function loader() {
  const snapshot = await pageDatabaseWork(() => loadStatusSnapshot(getDb().db, getContent().site.stats));
  return { snapshot, loadedAt: new Date().toISOString() };
}

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches[0].loaderData, {
    title: "System Status",
    description: "Live status and uptime of every Kestrel Software product and our licence servers.",
    path: "/status",
  }),
  { tagName: "link", rel: "alternate", type: "application/atom+xml", title: "Incidents (Atom)", href: FEED_PATH },
];

export default function StatusRoute({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:py-16">
      <PageHeader title="System Status" description="Current state of every product and our licence servers." />
      <StatusPage initial={loaderData.snapshot} loadedAt={loaderData.loadedAt} />
    </div>
  );
}
