import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { PageHeader } from "~/components/ui/page-header";
import { getContent } from "~/features/content/content.server";
import { DownloadList } from "~/features/downloads/downloads";
import { localeOfRequest } from "~/features/i18n/locale.server";
import { localeOfPath, localizedPath } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
import { pageMeta } from "~/features/layout/page-meta";
import type { RouteCacheHandle } from "~/lib/route-cache";
import type { Route } from "./+types/downloads";

export const handle = { cache: "content" } satisfies RouteCacheHandle;

export function loader({ request }: Route.LoaderArgs) {
  return { downloads: getContent(localeOfRequest(request)).downloads };
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
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
      <PageHeader
        title={t({ message: "Downloads", comment: "The downloads page's title and heading" })}
        description={t`The latest release of every product, with requirements and what changed. Installers come with your licence after purchase.`}
      />
      <DownloadList downloads={loaderData.downloads} />
    </div>
  );
}
