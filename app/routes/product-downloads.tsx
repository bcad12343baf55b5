import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { PageHeader } from "~/components/ui/page-header";
import { DownloadList } from "~/features/downloads/downloads";
import { loadProductDownloadsPage } from "~/features/releases/downloads-page.server";
import { localeOfRequest } from "~/features/i18n/locale.server";
import { localeOfPath, localizedPath } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
import { pageMeta } from "~/features/layout/page-meta";
import type { Route } from "./+types/product-downloads";

// Private (no handle.cache): each button says what it does for this visitor.
export function loader({ request, params }: Route.LoaderArgs) {
  return loadProductDownloadsPage(request, localeOfRequest(request), params.product);
}

export const meta: Route.MetaFunction = ({ matches, location, loaderData }) => {
  const locale = localeOfPath(location.pathname);
  const i18n = translatorFor(locale);
  const name = loaderData?.productName ?? "";
  return pageMeta(matches[0].loaderData, {
    title: i18n._(msg({ message: `${name} downloads`, comment: "A product's downloads page: title and heading" })),
    description: i18n._(msg`Every version of ${name} with its requirements, notes and checksums.`),
    path: localizedPath(`/downloads/${loaderData?.productSlug ?? ""}`, locale),
  });
};

export default function ProductDownloadsRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useLingui();
  const name = loaderData.productName;
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
      <PageHeader
        title={t({ message: `${name} downloads`, comment: "A product's downloads page: title and heading" })}
        description={t`Every version of ${name} with its requirements, notes and checksums.`}
      />
      <DownloadList releases={loaderData.releases} />
    </div>
  );
}
