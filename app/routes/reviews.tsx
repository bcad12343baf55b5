import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { PageHeader } from "~/components/ui/page-header";
import { localeOfPath, localizedPath } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
import { pageMeta } from "~/features/layout/page-meta";
import { ReviewsPage } from "~/features/reviews/reviews-page";
import { cachedReviewsForPage, getSampleReviews } from "~/features/reviews/reviews.server";
import type { RouteCacheHandle } from "~/lib/route-cache";
import type { Route } from "./+types/reviews";

export const handle = { cache: "live" } satisfies RouteCacheHandle;

// Reviews are people's own words: they are the same, untranslated, on every language's page.
export async function loader() {
  return { initial: await cachedReviewsForPage("page"), samples: getSampleReviews() };
}

export const meta: Route.MetaFunction = ({ matches, location }) => {
  const locale = localeOfPath(location.pathname);
  const i18n = translatorFor(locale);
  return pageMeta(matches[0].loaderData, {
    title: i18n._(msg`Customer Reviews`),
    description: i18n._(msg`What Kestrel Software customers say: vouches from our community.`),
    path: localizedPath("/reviews", locale),
  });
};

export default function ReviewsRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useLingui();
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
      <PageHeader title={t`Customer Reviews`} description={t`Real vouches from our community.`} />
      <ReviewsPage initial={loaderData.initial} samples={loaderData.samples} />
    </div>
  );
}
