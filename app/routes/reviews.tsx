import { PageHeader } from "~/components/ui/page-header";
import { pageMeta } from "~/features/layout/page-meta";
import { ReviewsPage } from "~/features/reviews/reviews-page";
import { cachedReviewsForPage, getSampleReviews } from "~/features/reviews/reviews.server";
import type { RouteCacheHandle } from "~/lib/route-cache";
import type { Route } from "./+types/reviews";

export const handle = { cache: "live" } satisfies RouteCacheHandle;

export async function loader() {
  return { initial: await cachedReviewsForPage("page"), samples: getSampleReviews() };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches[0].loaderData, {
    title: "Customer Reviews",
    description: "What Kestrel Software customers say: vouches from our community.",
    path: "/reviews",
  });

export default function ReviewsRoute({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
      <PageHeader title="Customer Reviews" description="Real vouches from our community." />
      <ReviewsPage initial={loaderData.initial} samples={loaderData.samples} />
    </div>
  );
}
