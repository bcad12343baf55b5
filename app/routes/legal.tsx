import { data } from "react-router";
import { pageMeta } from "~/features/layout/page-meta";
import { LegalPage } from "~/features/legal/legal-page";
import { getLegalPage } from "~/features/legal/legal.server";
import { isLegalSlug, LEGAL_PAGE_CACHE, legalPage } from "~/features/legal/legal-pages";
import type { RouteCacheHandle } from "~/lib/route-cache";
import type { Route } from "./+types/legal";

export const handle = { cache: LEGAL_PAGE_CACHE } satisfies RouteCacheHandle;

// One module serves every page in LEGAL_PAGES (route ids legal-*); the path names the page.
export function loader({ request }: Route.LoaderArgs) {
  // Client navigations fetch `/refund.data`, so drop that suffix before reading the slug.
  const slug = new URL(request.url).pathname.replace(/\.data$/, "").replace(/^\/+|\/+$/g, "");
  const page = isLegalSlug(slug) ? getLegalPage(slug) : undefined;
  if (!page) throw data(null, { status: 404 });
  return { page };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  loaderData
    ? pageMeta(matches[0].loaderData, {
        title: loaderData.page.title,
        description: legalPage(loaderData.page.slug).description,
        path: `/${loaderData.page.slug}`,
      })
    : [];

export default function LegalRoute({ loaderData }: Route.ComponentProps) {
  return <LegalPage page={loaderData.page} />;
}
