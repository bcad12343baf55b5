import type { ProductTileData } from "../catalog";
import { ProductTileList } from "../listing/product-tile";

/** The end of a product page: other products of its category, as tiles linking to their pages. */
export function RelatedProducts({
  heading,
  products,
  id = "related-heading",
}: {
  heading: string;
  products: readonly ProductTileData[];
  id?: string;
}) {
  if (products.length === 0) return null;
  return (
    <section aria-labelledby={id} className="mt-16">
      <h2 id={id} className="text-2xl font-bold text-foreground">
        {heading}
      </h2>
      <ProductTileList products={products} />
    </section>
  );
}
