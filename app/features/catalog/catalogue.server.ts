import { getContent } from "~/features/content/content.server";
import type { Product } from "./catalog.content";
import { type Catalogue, type CatalogueQuery, type CatalogueResult, createCatalogue } from "./catalogue-query.server";

// The source of products sits behind these functions: today the content files, later the connected shop.
let built: { products: readonly Product[]; catalogue: Catalogue } | undefined;

/** The catalogue of the current products, indexed once per set of products (at boot, then whenever they change). */
export function getCatalogue(): Catalogue {
  const { products, site } = getContent();
  if (built?.products !== products) built = { products, catalogue: createCatalogue(products, site.categories) };
  return built.catalogue;
}

/** Every list of products (the catalogue page, related products, the sitemap) is an answer to this. */
export function queryCatalogue(query: CatalogueQuery): CatalogueResult {
  return getCatalogue().query({ pageSize: getContent().site.catalogPageSize, ...query });
}

export function getProduct(id: number): Product | undefined {
  return getCatalogue().product(id);
}
