import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { PageHeader } from "~/components/ui/page-header";
import { getCatalogue } from "~/features/catalog/catalogue.server";
import { getContent } from "~/features/content/content.server";
import { selectDocs } from "~/features/docs/docs";
import { DocsPage } from "~/features/docs/docs-page";
import { localeOfRequest } from "~/features/i18n/locale.server";
import { DEFAULT_LOCALE, localeOfPath, localizedPath } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
import { pageMeta } from "~/features/layout/page-meta";
import type { RouteCacheHandle } from "~/lib/route-cache";
import type { Route } from "./+types/docs";

export const handle = { cache: "content" } satisfies RouteCacheHandle;

export function loader({ request }: Route.LoaderArgs) {
  const locale = localeOfRequest(request);
  const { docs } = getContent(locale);
  const requested = new URL(request.url).searchParams.get("product");
  const view = selectDocs(docs, getCatalogue(locale).all(), requested, getContent(DEFAULT_LOCALE).docs);
  return { view, intro: docs.intro, resources: docs.resources };
}

export const meta: Route.MetaFunction = ({ matches, loaderData, location }) => {
  const locale = localeOfPath(location.pathname);
  const i18n = translatorFor(locale);
  const name = loaderData?.view.selected.name;
  return pageMeta(matches[0].loaderData, {
    title:
      name === undefined
        ? i18n._(msg({ message: "Docs", comment: "The docs page's <title>" }))
        : i18n._(msg({ message: `${name} Docs`, comment: "A product's docs page <title>; {name} is the product" })),
    description: i18n._(
      msg`Troubleshooting guides for every Kestrel Software product: activation, crashes, performance and more.`,
    ),
    path: localizedPath(loaderData ? `/docs?product=${loaderData.view.selected.slug}` : "/docs", locale),
  });
};

export default function DocsRoute({ loaderData }: Route.ComponentProps) {
  const { t } = useLingui();
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:py-16">
      <PageHeader
        title={t`Documentation`}
        description={t`Troubleshooting guides for every product. Pick a product to see its common problems and how to fix them.`}
      />
      <DocsPage intro={loaderData.intro} view={loaderData.view} resources={loaderData.resources} />
    </div>
  );
}
