import { data } from "react-router";
import { localeOfRequest } from "~/features/i18n/locale.server";
import { localeOfPath, localizedPath, pathWithoutLocale } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
import { pageMeta } from "~/features/layout/page-meta";
import { LegalPage } from "~/features/legal/legal-page";
import { getLegalPage } from "~/features/legal/legal.server";
import { LEGAL_DESCRIPTIONS } from "~/features/legal/legal-descriptions";
import { isLegalSlug, LEGAL_PAGE_CACHE } from "~/features/legal/legal-pages";
import type { RouteCacheHandle } from "~/lib/route-cache";
import type { Route } from "./+types/legal";

export const handle = { cache: LEGAL_PAGE_CACHE } satisfies RouteCacheHandle;

// One module serves every page in LEGAL_PAGES (route ids legal-*); the path, without its locale prefix, names the page.
export function loader({ request }: Route.LoaderArgs) {
  // Client navigations fetch `/refund.data`, so drop that suffix before reading the slug.
  const pathname = new URL(request.url).pathname.replace(/\.data$/, "");
  const slug = pathWithoutLocale(pathname).replace(/^\/+|\/+$/g, "");
  const page = isLegalSlug(slug) ? getLegalPage(slug, localeOfRequest(request)) : undefined;
  if (!page) throw data(null, { status: 404 });
  return { page };
}

export const meta: Route.MetaFunction = ({ matches, loaderData, location }) => {
  if (!loaderData) return [];
  const locale = localeOfPath(location.pathname);
  return pageMeta(matches[0].loaderData, {
    title: loaderData.page.title,
    description: translatorFor(locale)._(LEGAL_DESCRIPTIONS[loaderData.page.slug]),
    path: localizedPath(`/${loaderData.page.slug}`, locale),
  });
};

export default function LegalRoute({ loaderData }: Route.ComponentProps) {
  return <LegalPage page={loaderData.page} />;
}
