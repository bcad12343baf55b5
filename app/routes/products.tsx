import { useEffect, useRef } from "react";
import { data, Link, useLocation, useNavigation } from "react-router";
import { ErrorCard, GeneralErrorBoundary } from "~/components/general-error-boundary";
import { buttonStyles } from "~/components/ui/button-styles";
import { catalogueStatus, productCards } from "~/features/catalog/catalog";
import { CatalogFilterForm } from "~/features/catalog/catalog-filter-form";
import { CatalogPagination } from "~/features/catalog/catalog-pagination";
import { getCatalogue, queryCatalogue } from "~/features/catalog/catalogue.server";
import { catalogSearch, hasActiveFilters, parseCatalogView } from "~/features/catalog/filtering";
import { ProductGrid } from "~/features/catalog/product-grid";
import { getContent } from "~/features/content/content.server";
import { pageMeta } from "~/features/layout/page-meta";
import { prefersReducedMotion } from "~/features/layout/page-transition";
import type { RouteCacheHandle } from "~/lib/route-cache";
import type { Route } from "./+types/products";

export const handle = { cache: "content" } satisfies RouteCacheHandle;

export function loader({ request }: Route.LoaderArgs) {
  const parsed = parseCatalogView(
    new URL(request.url).searchParams,
    getContent().site.categories.map((c) => c.value),
  );
  const { sorts } = getCatalogue();
  // A sort this catalogue does not offer (popular, without the shop's sales counts) reads as the default.
  const view = sorts.includes(parsed.sort) ? parsed : { ...parsed, sort: "featured" as const };
  const result = queryCatalogue({ ...view.filters, sort: view.sort, page: view.page });
  if (view.page > result.pageCount) {
    throw data(
      { message: "Page not found", firstPage: `/products${catalogSearch({ ...view, page: 1 })}` },
      { status: 404 },
    );
  }
  // Only the page's cards travel: nothing in the page grows with the catalogue.
  const { total, size, page, pageSize, pageCount, facets } = result;
  // `popular` travels only when offered, so a catalogue without sales counts sends nothing more.
  return {
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

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const description =
    "Browse Kestrel Software's Windows utilities and creator tools. Search, filter by category and price, and pick a licence from one day to lifetime.";
  if (!loaderData)
    return pageMeta(matches[0].loaderData, { title: "Page not found", description, path: "/products", noindex: true });
  const { view, page, pageCount } = loaderData;
  return pageMeta(matches[0].loaderData, {
    title: page > 1 ? `Products, page ${page} of ${pageCount}` : "Products",
    description,
    // The clean URL of what is shown: a malformed page number or an unknown sort is not part of it.
    path: `/products${catalogSearch(view)}`,
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
  // Dim the results while new ones load after a filter change.
  const navigation = useNavigation();
  const updating = navigation.state === "loading" && navigation.location.pathname === "/products";
  const status = useFocusResultsAfterPaging();
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
      <header className="mb-8">
        <h1 className="bg-gradient-to-r from-white to-sky-200 bg-clip-text text-3xl font-bold tracking-tight text-transparent sm:text-4xl">
          Products
        </h1>
        <p className="mt-2 text-slate-300">Premium Windows software with licences from one day to lifetime.</p>
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
        className="mt-6 mb-4 scroll-mt-24 rounded text-sm text-slate-300 focus:outline-none"
      >
        {catalogueStatus({ total, size, page, pageSize, pageCount, filtered: hasActiveFilters(view.filters) })}
      </p>
      <div aria-busy={updating} className={`transition-opacity ${updating ? "opacity-60" : ""}`}>
        {products.length > 0 ? (
          <ProductGrid products={products} />
        ) : (
          <div className="rounded-2xl border border-dashed border-white/15 px-6 py-16 text-center">
            <p className="text-lg text-slate-200">No products found matching your criteria.</p>
          </div>
        )}
      </div>
      <CatalogPagination
        page={page}
        pageCount={pageCount}
        hrefOf={(p) => `/products${catalogSearch({ ...view, page: p })}`}
      />
    </div>
  );
}

export function ErrorBoundary() {
  // Only a page past the last has a page of its own here; every other error goes on to the root's boundary.
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: ({ error }) => {
          const firstPage = (error.data as { firstPage?: string } | undefined)?.firstPage ?? "/products";
          return (
            <ErrorCard
              title="Page not found"
              message="The catalogue has fewer pages than that."
              titleClassName="text-4xl font-bold text-white"
            >
              <div className="mt-8 flex flex-wrap justify-center gap-3">
                <Link to={firstPage} className={buttonStyles.primary}>
                  Go to the first page
                </Link>
                <Link to="/" className={buttonStyles.secondary}>
                  Return to Home
                </Link>
              </div>
            </ErrorCard>
          );
        },
      }}
    />
  );
}
