import type { ProductCardData } from "../catalog";
import { coloursOf } from "./product-badges";
import { ProductCard } from "./product-card";
import { ShopColourRules } from "./shop-colours";

/** How many cards fill the first row on wide screens: their images load eagerly, the rest lazily. */
const EAGER_CARDS = 3;

export function ProductGrid({ products }: { products: readonly ProductCardData[] }) {
  return (
    <>
      <ShopColourRules colours={coloursOf(products)} />
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {products.map((product, index) => (
          <li key={product.id}>
            <ProductCard product={product} eager={index < EAGER_CARDS} />
          </li>
        ))}
      </ul>
    </>
  );
}
