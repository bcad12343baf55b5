import { PageHeader } from "~/components/ui/page-header";
import { getContent } from "~/features/content/content.server";
import { DownloadList } from "~/features/downloads/downloads";
import { pageMeta } from "~/features/layout/page-meta";
import type { RouteCacheHandle } from "~/lib/route-cache";
import type { Route } from "./+types/downloads";

export const handle = { cache: "content" } satisfies RouteCacheHandle;

export function loader() {
  return { downloads: getContent().downloads };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches[0].loaderData, {
    title: "Downloads",
    description: "Latest versions, requirements and changelogs for every Kestrel Software product.",
    path: "/downloads",
  });

export default function DownloadsRoute({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
      <PageHeader
        title="Downloads"
        description="The latest release of every product, with requirements and what changed. Installers come with your licence after purchase."
      />
      <DownloadList downloads={loaderData.downloads} />
    </div>
  );
}
