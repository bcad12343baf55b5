import { displayCurrencyOf } from "~/features/currency/display-currency.server";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef } from "react";
import { data, useLocation, useNavigation } from "react-router";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { productCards } from "~/features/catalog/catalog";
import { CatalogFilterForm } from "~/features/catalog/listing/catalog-filter-form";
import { CatalogueErrorCard } from "~/features/catalog/listing/catalogue-error-card";
import { CurrencySwitch } from "~/features/currency/currency-switch";
import { DisplayCurrencyContext } from "~/features/currency/display-currency";
import { CatalogPagination } from "~/features/catalog/listing/catalog-pagination";
import { CatalogueStatus } from "~/features/catalog/listing/catalogue-status";
import { getCatalogue, queryCatalogue } from "~/features/catalog/catalogue.server";
import { catalogSearch, hasActiveFilters, parseCatalogView } from "~/features/catalog/filtering";
import { ProductGrid } from "~/features/catalog/listing/product-grid";
import { getContent } from "~/features/content/content.server";
import { localeOfRequest } from "~/features/i18n/locale.server";
import { localeOfPath, localizedPath } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
import { useLocale } from "~/features/i18n/use-locale";
import { pageMeta } from "~/features/layout/page-meta";
import { prefersReducedMotion } from "~/features/layout/page-transition";
import type { RouteCacheHandle } from "~/lib/route-cache";
import type { Route } from "./+types/products";

export const handle = { cache: "content" } satisfies RouteCacheHandle;

export function loader({ request }: Route.LoaderArgs) {
  const locale = localeOfRequest(request);
  const parsed = parseCatalogView(
    new URL(request.url).searchParams,
    getContent(locale).site.categories.map((c) => c.value),
  );
  const { sorts } = getCatalogue(locale);
  // A sort this catalogue does not offer (popular, without the shop's sales counts) reads as the default.
  const view = sorts.includes(parsed.sort) ? parsed : { ...parsed, sort: "featured" as const };
  const result = queryCatalogue({ ...view.filters, sort: view.sort, page: view.page }, locale);
  if (view.page > result.pageCount) {
    throw data(
      {
        message: "Page not found",
        firstPage: localizedPath(`/products${catalogSearch({ ...view, page: 1 })}`, locale),
      },
      { status: 404 },
    );
  }
  // Only the page's cards travel: nothing in the page grows with the catalogue.
  const { total, size, page, pageSize, pageCount, facets } = result;
  // `popular` travels only when offered, so a catalogue without sales counts sends nothing more.
  return {
    displayCurrency: displayCurrencyOf(request, locale, getContent(locale)),
    view,
    ...(sorts.includes("popular") ? { popular: true as const } : {}),
    products: productCards(result.items),
    total,
    size,
    page,
    pageSize,
    pageCount,
    facets,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches, location }) => {
  const locale = localeOfPath(location.pathname);
  const i18n = translatorFor(locale);
  const description = i18n._(
    msg`Browse Kestrel Software's Windows utilities and creator tools. Search, filter by category and price, and pick a licence from one day to lifetime.`,
  );
  if (!loaderData)
    return pageMeta(matches[0].loaderData, {
      title: i18n._(msg`Page not found`),
      description,
      path: localizedPath("/products", locale),
      noindex: true,
    });
  const { view } = loaderData;
  // Page numbers ungrouped, as the pagination shows them.
  const page = i18n.number(loaderData.page, { useGrouping: false });
  const pageCount = i18n.number(loaderData.pageCount, { useGrouping: false });
  return pageMeta(matches[0].loaderData, {
    title:
      loaderData.page > 1
        ? i18n._(
            msg({
              message: `Products, page ${page} of ${pageCount}`,
              comment: "Title of a catalogue page after the first",
            }),
          )
        : i18n._(msg({ message: "Products", comment: "Title of the catalogue page" })),
    description,
    // The clean URL of what is shown: a malformed page number or an unknown sort is not part of it.
    path: localizedPath(`/products${catalogSearch(view)}`, locale),
  });
};

/** After a page link, focus and scroll go to the top of the results, where the new count is read out. */
function useFocusResultsAfterPaging() {
  const location = useLocation();
  const status = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (!(location.state as { focusResults?: boolean } | null)?.focusResults || !status.current) return;
    status.current.focus({ preventScroll: true });
    status.current.scrollIntoView({ block: "start", behavior: prefersReducedMotion() ? "auto" : "smooth" });
  }, [location]);
  return status;
}

export default function ProductsRoute({ loaderData }: Route.ComponentProps) {
  const { view, facets, products, total, size, page, pageSize, pageCount } = loaderData;
  const { path } = useLocale();
  // Dim the results while new ones load after a filter change.
  const navigation = useNavigation();
  const updating = navigation.state === "loading" && navigation.location.pathname === path("/products");
  const status = useFocusResultsAfterPaging();
  return (
    <DisplayCurrencyContext value={loaderData.displayCurrency}>
      <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
        <header className="mb-8">
          <h1 className="bg-gradient-to-r from-foreground to-accent-soft bg-clip-text text-3xl font-bold tracking-tight text-transparent sm:text-4xl">
            <Trans comment="Heading of the catalogue page">Products</Trans>
          </h1>
          <p className="mt-2 text-soft">
            <Trans>Premium Windows software with licences from one day to lifetime.</Trans>
          </p>
          {loaderData.displayCurrency ? (
            <div className="mt-4">
              <CurrencySwitch display={loaderData.displayCurrency} />
            </div>
          ) : null}
        </header>
        <CatalogFilterForm
          filters={view.filters}
          sort={view.sort}
          popular={"popular" in loaderData}
          categories={facets}
        />
        <p
          ref={status}
          role="status"
          tabIndex={-1}
          className="mt-6 mb-4 scroll-mt-24 rounded text-sm text-soft focus:outline-none"
        >
          <CatalogueStatus
            total={total}
            size={size}
            page={page}
            pageSize={pageSize}
            pageCount={pageCount}
            filtered={hasActiveFilters(view.filters)}
          />
        </p>
        <div aria-busy={updating} className={`transition-opacity ${updating ? "opacity-60" : ""}`}>
          {products.length > 0 ? (
            <ProductGrid products={products} />
          ) : (
            <div className="rounded-2xl border border-dashed border-foreground/15 px-6 py-16 text-center">
              <p className="text-lg text-foreground">
                <Trans>No products found matching your criteria.</Trans>
              </p>
            </div>
          )}
        </div>
        <CatalogPagination
          page={page}
          pageCount={pageCount}
          hrefOf={(p) => path(`/products${catalogSearch({ ...view, page: p })}`)}
        />
      </div>
    </DisplayCurrencyContext>
  );
}

export function ErrorBoundary() {
  // Only a page past the last has a page of its own here; every other error goes on to the root's boundary.
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: ({ error }) => (
          <PastTheLastPage firstPage={(error.data as { firstPage?: string } | undefined)?.firstPage} />
        ),
      }}
    />
  );
}

/** A page number past the catalogue's last page: a way to its first page (same filters), or home. */
function PastTheLastPage({ firstPage }: { firstPage: string | undefined }) {
  const { t } = useLingui();
  const { path } = useLocale();
  return (
    <CatalogueErrorCard
      title={t`Page not found`}
      message={t`The catalogue has fewer pages than that.`}
      onward={{ to: firstPage ?? path("/products"), label: <Trans>Go to the first page</Trans> }}
    />
  );
}
