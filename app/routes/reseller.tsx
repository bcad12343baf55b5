import { PageHeader } from "~/components/ui/page-header";
import { getContent } from "~/features/content/content.server";
import { pageMeta } from "~/features/layout/page-meta";
import { ResellerPlans } from "~/features/reseller/reseller-plans";
import type { RouteCacheHandle } from "~/lib/route-cache";
import type { Route } from "./+types/reseller";

export const handle = { cache: "content" } satisfies RouteCacheHandle;

export function loader() {
  const { plans, site } = getContent();
  return { plans, signUpUrl: site.community.url };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches[0].loaderData, {
    title: "Reseller Program",
    description: "Resell Kestrel Software: monthly reseller plans, custom-branded installers and 50% off keys.",
    path: "/reseller",
  });

export default function ResellerRoute({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
      <PageHeader title="Reseller Program" description={loaderData.plans.intro} />
      <ResellerPlans plans={loaderData.plans} signUpUrl={loaderData.signUpUrl} />
    </div>
  );
}
