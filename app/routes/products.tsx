import { useNavigation } from "react-router";
import { categoriesInCatalogue, productCards } from "~/features/catalog/catalog";
import { CatalogFilterForm } from "~/features/catalog/catalog-filter-form";
import { filterProducts, hasActiveFilters, parseFilters } from "~/features/catalog/filtering";
import { ProductGrid } from "~/features/catalog/product-grid";
import { getContent } from "~/features/content/content.server";
import { pageMeta } from "~/features/layout/page-meta";
import type { RouteCacheHandle } from "~/lib/route-cache";
import type { Route } from "./+types/products";

export const handle = { cache: "content" } satisfies RouteCacheHandle;

export function loader({ request }: Route.LoaderArgs) {
  const { site, products } = getContent();
  const categories = categoriesInCatalogue(site.categories, products);
  const filters = parseFilters(new URL(request.url).searchParams, categories.map((c) => c.value));
  return { filters, categories, products: productCards(filterProducts(products, filters)), total: products.length };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches[0].loaderData, {
    title: "Products",
    description: "Browse Kestrel Software's Windows utilities and creator tools. Search, filter by category and price, and pick a licence from one day to lifetime.",
    path: "/products",
  });

export default function ProductsRoute({ loaderData }: Route.ComponentProps) {
  const { filters, categories, products, total } = loaderData;
  const filtered = hasActiveFilters(filters);
  // Dim the results while new ones load after a filter change.
  const navigation = useNavigation();
  const updating = navigation.state === "loading" && navigation.location.pathname === "/products";
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
      <header className="mb-8">
        <h1 className="bg-gradient-to-r from-white to-sky-200 bg-clip-text text-3xl font-bold tracking-tight text-transparent sm:text-4xl">Products</h1>
        <p className="mt-2 text-slate-300">Premium Windows software with licences from one day to lifetime.</p>
      </header>
      <CatalogFilterForm filters={filters} categories={categories} />
      <p role="status" className="mt-6 mb-4 text-sm text-slate-300">
        {filtered ? `Showing ${products.length} of ${total} products` : `${total} products`}
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
    </div>
  );
}
