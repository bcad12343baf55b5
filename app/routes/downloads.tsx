import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { PageHeader } from "~/components/ui/page-header";
import { DownloadList } from "~/features/downloads/downloads";
import { loadDownloadsPage } from "~/features/releases/downloads-page.server";
import { localeOfRequest } from "~/features/i18n/locale.server";
import { localeOfPath, localizedPath } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
import { useLocale } from "~/features/i18n/use-locale";
import { pageMeta } from "~/features/layout/page-meta";
import type { Route } from "./+types/downloads";

// Private (no handle.cache): each button says what it does for this visitor, signed in at /orders or not.
export function loader({ request }: Route.LoaderArgs) {
  return loadDownloadsPage(request, localeOfRequest(request));
}

export const meta: Route.MetaFunction = ({ matches, location }) => {
  const locale = localeOfPath(location.pathname);
  const i18n = translatorFor(locale);
  return pageMeta(matches[0].loaderData, {
    title: i18n._(msg({ message: "Downloads", comment: "The downloads page's title and heading" })),
    description: i18n._(msg`Latest versions, requirements and changelogs for every Kestrel Software product.`),
    path: localizedPath("/downloads", locale),
  });
};

export default function DownloadsRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useLingui();
  const { path } = useLocale();
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
      <PageHeader
        title={t({ message: "Downloads", comment: "The downloads page's title and heading" })}
        description={t`The latest release of every product, with requirements, what changed and the SHA-256 of each file. Buyers download with the address they bought with.`}
      />
      <DownloadList releases={loaderData.releases} versionsHref={(r) => path(`/downloads/${r.productSlug}`)} />
    </div>
  );
}
