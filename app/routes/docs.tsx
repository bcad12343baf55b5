import { PageHeader } from "~/components/ui/page-header";
import { getCatalogue } from "~/features/catalog/catalogue.server";
import { getContent } from "~/features/content/content.server";
import { selectDocs } from "~/features/docs/docs";
import { DocsPage } from "~/features/docs/docs-page";
import { pageMeta } from "~/features/layout/page-meta";
import type { RouteCacheHandle } from "~/lib/route-cache";
import type { Route } from "./+types/docs";

export const handle = { cache: "content" } satisfies RouteCacheHandle;

export function loader({ request }: Route.LoaderArgs) {
  const { docs } = getContent();
  const view = selectDocs(docs, getCatalogue().all(), new URL(request.url).searchParams.get("product"));
  return { view, intro: docs.intro, resources: docs.resources };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches[0].loaderData, {
    title: loaderData ? `${loaderData.view.selected.name} Docs` : "Docs",
    description:
      "Troubleshooting guides for every Kestrel Software product: activation, crashes, performance and more.",
    path: loaderData ? `/docs?product=${loaderData.view.selected.slug}` : "/docs",
  });

export default function DocsRoute({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:py-16">
      <PageHeader
        title="Documentation"
        description="Troubleshooting guides for every product. Pick a product to see its common problems and how to fix them."
      />
      <DocsPage intro={loaderData.intro} view={loaderData.view} resources={loaderData.resources} />
    </div>
  );
}
