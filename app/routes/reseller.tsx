import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { PageHeader } from "~/components/ui/page-header";
import { getContent } from "~/features/content/content.server";
import { localeOfRequest } from "~/features/i18n/locale.server";
import { localeOfPath, localizedPath } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
import { pageMeta } from "~/features/layout/page-meta";
import { ResellerPlans } from "~/features/reseller/reseller-plans";
import type { RouteCacheHandle } from "~/lib/route-cache";
import type { Route } from "./+types/reseller";

export const handle = { cache: "content" } satisfies RouteCacheHandle;

export function loader({ request }: Route.LoaderArgs) {
  const { plans, site } = getContent(localeOfRequest(request));
  return { plans, signUpUrl: site.community.url };
}

export const meta: Route.MetaFunction = ({ matches, location }) => {
  const locale = localeOfPath(location.pathname);
  const i18n = translatorFor(locale);
  return pageMeta(matches[0].loaderData, {
    title: i18n._(msg`Reseller Program`),
    description: i18n._(
      msg`Resell Kestrel Software: monthly reseller plans, custom-branded installers and 50% off keys.`,
    ),
    path: localizedPath("/reseller", locale),
  });
};

export default function ResellerRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useLingui();
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
      <PageHeader title={t`Reseller Program`} description={loaderData.plans.intro} />
      <ResellerPlans plans={loaderData.plans} signUpUrl={loaderData.signUpUrl} />
    </div>
  );
}
